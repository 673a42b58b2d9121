import { FieldError, fieldErrors } from '../errors/field-error';
import { validateLabels } from '../meta/object-meta-validation';
import { META_V1 } from '../meta/meta-messages.schema';
import { atomicStruct, described, required, s } from '../schema/schema';
import { TypeOf } from '../schema/type-of';
import { labelValue, qualifiedName } from '../validation/names';
import { LabelOperator, LabelRequirement, matchesLabels } from './label-selector';

const LABEL_SELECTOR_REQUIREMENT = META_V1.struct('LabelSelectorRequirement', {
  key: [1, s.string, required, described('Label key the requirement tests.')],
  operator: [2, s.string, required, described('How the label is tested: In, NotIn, Exists or DoesNotExist.')],
  values: [3, s.stringList, described('Values for In and NotIn; empty for Exists and DoesNotExist.')],
});

/** metav1.LabelSelector, the selector object of specs: matchLabels and matchExpressions, ANDed. */
export const LABEL_SELECTOR = atomicStruct(
  META_V1.struct('LabelSelector', {
    matchLabels: [1, s.stringMap, described('Labels an object must carry, with exactly these values.')],
    matchExpressions: [2, s.list(LABEL_SELECTOR_REQUIREMENT), described('Requirements on labels that an object must all meet.')],
  }),
);

export type LabelSelector = TypeOf<typeof LABEL_SELECTOR>;

const OPERATORS: Record<string, LabelOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/** The checks of upstream's `ValidateLabelSelector`: labels, operators, and values that fit the operator. */
export function validateLabelSelector(selector: LabelSelector | undefined, field: string): FieldError[] {
  if (!selector) return [];
  const errors = validateLabels(selector.matchLabels, `${field}.matchLabels`);
  (selector.matchExpressions ?? []).forEach((expression, i) => {
    const path = `${field}.matchExpressions[${i}]`;
    const values = expression.values ?? [];
    const operator = OPERATORS[expression.operator ?? ''];
    if (operator === 'in' || operator === 'notin') {
      if (values.length === 0) errors.push(fieldErrors.required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (operator) {
      if (values.length > 0) {
        errors.push(fieldErrors.forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      }
    } else {
      errors.push(fieldErrors.invalid(`${path}.operator`, expression.operator ?? '', 'not a valid selector operator'));
    }
    const key = expression.key ?? '';
    for (const message of qualifiedName(key)) errors.push(fieldErrors.invalid(`${path}.key`, key, message));
  });
  return errors;
}

export const isEmptySelector = (selector: LabelSelector): boolean =>
  Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0;

/** The selector as requirements sorted by key, or undefined when it cannot be one (the apiserver's conversion fails). */
function requirements(selector: LabelSelector): LabelRequirement[] | undefined {
  const all: LabelRequirement[] = Object.entries(selector.matchLabels ?? {}).map(([key, value]) => ({ key, operator: '=', values: [value] }));
  for (const expression of selector.matchExpressions ?? []) {
    const operator = OPERATORS[expression.operator ?? ''];
    if (!operator) return undefined;
    all.push({ key: expression.key ?? '', operator, values: [...(expression.values ?? [])].sort() });
  }
  const valid = all.every((r) => {
    const needsValues = r.operator === '=' || r.operator === 'in' || r.operator === 'notin';
    return (
      qualifiedName(r.key).length === 0 &&
      (needsValues ? r.values.length > 0 : r.values.length === 0) &&
      r.values.every((v) => labelValue(v).length === 0)
    );
  });
  return valid ? all.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) : undefined;
}

/**
 * Whether the selector selects objects with these labels: an absent selector selects nothing, an empty one
 * everything. Undefined when the selector is invalid.
 */
export function selectorMatches(selector: LabelSelector | undefined, labels: Record<string, string> | null | undefined): boolean | undefined {
  if (!selector) return false;
  const all = requirements(selector);
  return all && matchesLabels(all, labels);
}

/** The selector in label-selector text, as a Scale's targetSelector shows it: `app=web,tier in (a,b)`. */
export function selectorText(selector: LabelSelector | undefined): string {
  const all = selector ? requirements(selector) : [];
  return (all ?? [])
    .map((r) => {
      switch (r.operator) {
        case '=':
          return `${r.key}=${r.values[0]}`;
        case 'exists':
          return r.key;
        case '!':
          return `!${r.key}`;
        default:
          return `${r.key} ${r.operator} (${r.values.join(',')})`;
      }
    })
    .join(',');
}
