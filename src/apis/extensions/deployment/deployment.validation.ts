import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { nonNegative } from '../../../apimachinery/validation/numbers';
import { validateSelectedTemplate, validateStatusCounts } from '../../workloads/controller.validation';
import { intOrPercentValue, notMoreThan100Percent, validateIntOrPercent } from '../../workloads/int-or-percent';
import { Deployment } from './deployment.schema';

type Spec = NonNullable<Deployment['spec']>;

function validateStrategy(strategy: Spec['strategy'] = {}, field: string): FieldError[] {
  const rollingUpdate = strategy.rollingUpdate;
  switch (strategy.type) {
    case 'Recreate':
      return rollingUpdate ? [fieldErrors.forbidden(`${field}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'")] : [];
    case 'RollingUpdate': {
      const path = `${field}.rollingUpdate`;
      if (!rollingUpdate) return [fieldErrors.required(path, 'this should be defaulted and never be nil')];
      const { maxUnavailable, maxSurge } = rollingUpdate;
      const errors = [
        ...validateIntOrPercent(maxUnavailable, `${path}.maxUnavailable`),
        ...validateIntOrPercent(maxSurge, `${path}.maxSurge`),
      ];
      if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) {
        errors.push(fieldErrors.invalid(`${path}.maxUnavailable`, maxUnavailable ?? 0, 'may not be 0 when `maxSurge` is 0'));
      }
      return [...errors, ...notMoreThan100Percent(maxUnavailable, `${path}.maxUnavailable`)];
    }
    default:
      return [fieldErrors.notSupported(field, strategy, ['Recreate', 'RollingUpdate'])];
  }
}

/** The spec checks of a Deployment, as upstream's `ValidateDeploymentSpec`. */
export function validateDeployment(deployment: Deployment): FieldError[] {
  const spec = deployment.spec ?? {};
  const errors = [
    ...nonNegative(spec.replicas, 'spec.replicas'),
    ...validateSelectedTemplate(spec, 'spec'),
    ...validateStrategy(spec.strategy, 'spec.strategy'),
    ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'),
    // 1.7 reports the rollback revision at this path
    ...(spec.rollbackTo ? nonNegative(spec.rollbackTo.revision, 'spec.rollback.version') : []),
  ];
  const deadline = spec.progressDeadlineSeconds;
  if (deadline !== undefined) {
    errors.push(...nonNegative(deadline, 'spec.progressDeadlineSeconds'));
    if (deadline <= (spec.minReadySeconds ?? 0)) {
      errors.push(fieldErrors.invalid('spec.progressDeadlineSeconds', deadline, 'must be greater than minReadySeconds.'));
    }
  }
  return errors;
}

/** The checks of a `/status` write. */
export function validateDeploymentStatus(deployment: Deployment): FieldError[] {
  const status = deployment.status ?? {};
  const errors = validateStatusCounts(
    status,
    'status',
    ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount'],
    ['updatedReplicas', 'readyReplicas', 'availableReplicas'],
  );
  const ready = status.readyReplicas ?? 0;
  const available = status.availableReplicas ?? 0;
  if (ready > 0 && available > ready) errors.push(fieldErrors.invalid('status.availableReplicas', available, 'cannot be greater than readyReplicas'));
  return errors;
}
