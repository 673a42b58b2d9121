import { FieldError, fieldErrors } from '../../apimachinery/errors/field-error';
import { isEmptySelector, selectorMatches, validateLabelSelector } from '../../apimachinery/selectors/label-selector-object';
import { nonNegative } from '../../apimachinery/validation/numbers';
import { PodController } from './controller.types';
import { validateControllerTemplate } from './pod-template/pod-template.validation';

type Spec = NonNullable<PodController['spec']>;

/**
 * The selector and template of a Deployment or ReplicaSet (the apiserver's checks for ReplicaSet templates): a
 * selector is required and may not be empty, and it must select the template's labels.
 */
export function validateSelectedTemplate(spec: Spec, field: string): FieldError[] {
  const { selector, template = {} } = spec;
  const errors: FieldError[] = [];
  if (!selector) {
    errors.push(fieldErrors.required(`${field}.selector`));
  } else {
    errors.push(...validateLabelSelector(selector, `${field}.selector`));
    // 1.7 says "deployment" for ReplicaSets too
    if (isEmptySelector(selector)) errors.push(fieldErrors.invalid(`${field}.selector`, selector, 'empty selector is not valid for deployment.'));
  }
  const labels = template.metadata?.labels;
  const matches = selectorMatches(selector, labels);
  if (matches === undefined) {
    errors.push(fieldErrors.invalid(`${field}.selector`, selector, 'invalid label selector.'));
    return errors;
  }
  if (!matches && !(selector && isEmptySelector(selector))) {
    errors.push(fieldErrors.invalid(`${field}.template.metadata.labels`, labels, '`selector` does not match template `labels`'));
  }
  errors.push(...validateControllerTemplate(template, `${field}.template`, (spec.replicas ?? 0) > 1));
  return errors;
}

/** Observed counts of a status: none negative, and those in `atMostReplicas` not above `replicas`. */
export function validateStatusCounts<Count extends string>(
  status: NoInfer<Partial<Record<Count | 'replicas', number>>>,
  field: string,
  counts: readonly Count[],
  atMostReplicas: readonly Count[],
): FieldError[] {
  const errors = counts.flatMap((count) => nonNegative(status[count], `${field}.${count}`));
  for (const count of atMostReplicas) {
    const value = status[count] ?? 0;
    if (value > (status.replicas ?? 0)) errors.push(fieldErrors.invalid(`${field}.${count}`, value, 'cannot be greater than status.replicas'));
  }
  return errors;
}

/** The counts of a ReplicaSet's or ReplicationController's status that their checks read. */
type ReplicaStatus = Partial<Record<'replicas' | 'fullyLabeledReplicas' | 'readyReplicas' | 'availableReplicas' | 'observedGeneration', number>>;

/** The status of a ReplicaSet or ReplicationController: counts within replicas, available within ready. */
export function validateReplicaStatus(status: ReplicaStatus = {}): FieldError[] {
  const errors = validateStatusCounts(
    status,
    'status',
    ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'],
    ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'],
  );
  const available = status.availableReplicas ?? 0;
  if (available > (status.readyReplicas ?? 0)) {
    errors.push(fieldErrors.invalid('status.availableReplicas', available, 'cannot be greater than readyReplicas'));
  }
  return errors;
}
