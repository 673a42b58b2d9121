import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { isEmptySelector, selectorMatches, validateLabelSelector } from '../../../apimachinery/selectors/label-selector-object';
import { nonNegative } from '../../../apimachinery/validation/numbers';
import { validateStatusCounts } from '../../workloads/controller.validation';
import { intOrPercentValue, notMoreThan100Percent, validateIntOrPercent } from '../../workloads/int-or-percent';
import { validateControllerTemplate } from '../../workloads/pod-template/pod-template.validation';
import { DaemonSet } from './daemonset.schema';

type Spec = NonNullable<DaemonSet['spec']>;

function validateUpdateStrategy(strategy: Spec['updateStrategy'] = {}, field: string): FieldError[] {
  switch (strategy.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate': {
      if (!strategy.rollingUpdate) return [fieldErrors.required(`${field}.rollingUpdate`)];
      const path = `${field}.rollingUpdate.maxUnavailable`;
      const maxUnavailable = strategy.rollingUpdate.maxUnavailable;
      const errors = validateIntOrPercent(maxUnavailable, path);
      if (intOrPercentValue(maxUnavailable) === 0) errors.push(fieldErrors.invalid(path, maxUnavailable ?? 0, 'cannot be 0'));
      return [...errors, ...notMoreThan100Percent(maxUnavailable, path)];
    }
    default:
      return [fieldErrors.notSupported(field, strategy, ['RollingUpdate', 'OnDelete'])];
  }
}

/**
 * The spec checks of a DaemonSet, as upstream's `ValidateDaemonSetSpec`: a missing selector selects nothing, so it
 * matches no labels.
 */
export function validateDaemonSet(daemonSet: DaemonSet): FieldError[] {
  const spec = daemonSet.spec ?? {};
  const { selector, template = {} } = spec;
  const errors = validateLabelSelector(selector, 'spec.selector');
  if (selectorMatches(selector, template.metadata?.labels) === false) {
    errors.push(fieldErrors.invalid('spec.template.metadata.labels', template.metadata?.labels, '`selector` does not match template `labels`'));
  }
  if (selector && isEmptySelector(selector)) errors.push(fieldErrors.invalid('spec.selector', selector, 'empty selector is not valid for daemonset.'));
  return [
    ...errors,
    ...validateControllerTemplate(template, 'spec.template', true),
    ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...nonNegative(spec.templateGeneration, 'spec.templateGeneration'),
    ...validateUpdateStrategy(spec.updateStrategy, 'spec.updateStrategy'),
    ...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'),
  ];
}

export function validateDaemonSetStatus(daemonSet: DaemonSet): FieldError[] {
  const counts = [
    'currentNumberScheduled',
    'numberMisscheduled',
    'desiredNumberScheduled',
    'numberReady',
    'observedGeneration',
    'updatedNumberScheduled',
    'numberAvailable',
    'numberUnavailable',
    'collisionCount',
  ];
  return validateStatusCounts(daemonSet.status ?? {}, 'status', counts, []);
}
