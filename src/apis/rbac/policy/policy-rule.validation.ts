import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { PolicyRule } from './policy-rule.schema';

/** The checks of one rule (upstream's ValidatePolicyRule): verbs always; either non-resource URLs or resources. */
function validateRule(rule: PolicyRule, namespaced: boolean, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const has = (values: string[] | undefined) => (values?.length ?? 0) > 0;
  if (!has(rule.verbs)) errors.push(fieldErrors.required(`${field}.verbs`, 'verbs must contain at least one value'));
  if (has(rule.nonResourceURLs)) {
    if (namespaced) {
      errors.push(fieldErrors.invalid(`${field}.nonResourceURLs`, rule.nonResourceURLs, 'namespaced rules cannot apply to non-resource URLs'));
    }
    if (has(rule.apiGroups) || has(rule.resources) || has(rule.resourceNames)) {
      errors.push(fieldErrors.invalid(`${field}.nonResourceURLs`, rule.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errors;
  }
  if (!has(rule.apiGroups)) errors.push(fieldErrors.required(`${field}.apiGroups`, 'resource rules must supply at least one api group'));
  if (!has(rule.resources)) errors.push(fieldErrors.required(`${field}.resources`, 'resource rules must supply at least one resource'));
  return errors;
}

export function validateRules(rules: PolicyRule[] | undefined, namespaced: boolean): FieldError[] {
  return (rules ?? []).flatMap((rule, i) => validateRule(rule, namespaced, `rules[${i}]`));
}
