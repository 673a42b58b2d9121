import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { selectorMatches } from '../../../apimachinery/selectors/label-selector-object';
import { defineStrategy } from '../../../registry/kind-definition';
import { nameRules } from '../../../apimachinery/validation/names';
import { nonNegative } from '../../../apimachinery/validation/numbers';
import { defaultLabelsFromTemplate } from '../../workloads/controller.defaults';
import { REPLICA_FIELD_LABELS } from '../../workloads/controller.field-labels';
import { REPLICATION_CONTROLLER, ReplicationController } from './replicationcontroller.schema';
import { validateReplicaStatus } from '../../workloads/controller.validation';
import { defaultPodTemplate } from '../../workloads/pod-template/pod-template.defaults';
import { validateControllerTemplate } from '../../workloads/pod-template/pod-template.validation';

function defaultReplicationController(rc: ReplicationController): void {
  const spec = (rc.spec ??= {});
  const labels = spec.template?.metadata?.labels;
  if (labels) {
    if (Object.keys(spec.selector ?? {}).length === 0) spec.selector = { ...labels };
    defaultLabelsFromTemplate(rc, labels);
  }
  spec.replicas ??= 1;
  if (spec.template) defaultPodTemplate(spec.template);
}

function validateReplicationController(rc: ReplicationController): FieldError[] {
  const spec = rc.spec ?? {};
  const selector = spec.selector ?? {};
  const selecting = Object.keys(selector).length > 0;
  const errors = [
    ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...(selecting ? [] : [fieldErrors.required('spec.selector')]),
    ...nonNegative(spec.replicas, 'spec.replicas'),
  ];
  const template = spec.template;
  if (!template) return [...errors, fieldErrors.required('spec.template')];
  if (selecting && !selectorMatches({ matchLabels: selector }, template.metadata?.labels)) {
    errors.push(fieldErrors.invalid('spec.template.metadata.labels', template.metadata?.labels, '`selector` does not match template `labels`'));
  }
  return [...errors, ...validateControllerTemplate(template, 'spec.template', (spec.replicas ?? 0) > 1)];
}

/** ReplicationController (core v1): the same rules as a ReplicaSet, over a map selector. */
export const REPLICATION_CONTROLLER_STRATEGY = defineStrategy({
  nameRule: nameRules.dns1123Subdomain,
  shape: REPLICATION_CONTROLLER,
  status: { empty: { replicas: 0 }, keepsLabels: false, validate: (rc: ReplicationController) => validateReplicaStatus(rc.status) },
  generation: 'spec',
  orphanDependentsByDefault: true,
  applyDefaults: defaultReplicationController,
  validate: validateReplicationController,
  validateUpdate: validateReplicationController,
  podSelector: (rc: ReplicationController) => rc.spec?.selector && { matchLabels: rc.spec.selector },
  fieldLabels: REPLICA_FIELD_LABELS,
});
