import { FieldError } from '../../../apimachinery/errors/field-error';
import { defineStrategy } from '../../../registry/kind-definition';
import { nameRules } from '../../../apimachinery/validation/names';
import { nonNegative } from '../../../apimachinery/validation/numbers';
import { defaultPodController } from '../../workloads/controller.defaults';
import { podControllerSelector } from '../../workloads/controller.types';
import { REPLICA_FIELD_LABELS } from '../../workloads/controller.field-labels';
import { validateReplicaStatus, validateSelectedTemplate } from '../../workloads/controller.validation';
import { REPLICA_SET, ReplicaSet } from './replicaset.schema';

function defaultReplicaSet(replicaSet: ReplicaSet): void {
  defaultPodController(replicaSet);
  replicaSet.spec!.replicas ??= 1;
}

export function validateReplicaSet(replicaSet: ReplicaSet): FieldError[] {
  const spec = replicaSet.spec ?? {};
  return [
    ...nonNegative(spec.replicas, 'spec.replicas'),
    ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...validateSelectedTemplate(spec, 'spec'),
  ];
}

/** ReplicaSet: as a Deployment, but only spec changes bump the generation. */
export const REPLICA_SET_STRATEGY = defineStrategy({
  nameRule: nameRules.dns1123Subdomain,
  shape: REPLICA_SET,
  status: { empty: { replicas: 0 }, keepsLabels: false, validate: (replicaSet: ReplicaSet) => validateReplicaStatus(replicaSet.status) },
  generation: 'spec',
  orphanDependentsByDefault: true,
  applyDefaults: defaultReplicaSet,
  validate: validateReplicaSet,
  validateUpdate: validateReplicaSet,
  podSelector: podControllerSelector,
  fieldLabels: REPLICA_FIELD_LABELS,
});
