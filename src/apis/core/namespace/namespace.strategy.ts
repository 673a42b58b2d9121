import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { KubeObject } from '../../../apimachinery/meta/kube-object';
import { COMMON_FIELD_LABELS } from '../../../apimachinery/selectors/field-labels';
import { nameRules } from '../../../apimachinery/validation/names';
import { defineStrategy, PartStrategy } from '../../../registry/kind-definition';
import { KUBERNETES_FINALIZER, validateSpecFinalizers } from './namespace.finalizers';
import { Namespace, NAMESPACE, NAMESPACE_ACTIVE, NAMESPACE_TERMINATING } from './namespace.schema';

/** The label every namespace carries, equal to its name (so that label selectors can pick namespaces by name). */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/** `status.phase`, and `name` (which upstream keeps for compatibility) beside the common `metadata.name`. */
const NAMESPACE_FIELD_LABELS = {
  'metadata.name': COMMON_FIELD_LABELS['metadata.name'],
  name: COMMON_FIELD_LABELS['metadata.name'],
  'status.phase': { path: ['status', 'phase'], absent: '' },
};

function labelWithName(namespace: KubeObject): void {
  const name = namespace.metadata.name;
  if (name) namespace.metadata.labels = { ...namespace.metadata.labels, [NAMESPACE_NAME_LABEL]: name };
}

function defaultNamespace(namespace: Namespace): void {
  labelWithName(namespace);
  if (namespace.status && !namespace.status.phase) namespace.status.phase = NAMESPACE_ACTIVE;
}

/** A new namespace waits for its content to go before it is removed. */
function addContentFinalizer(namespace: Namespace): void {
  const spec = (namespace.spec ??= {});
  if (!spec.finalizers?.includes(KUBERNETES_FINALIZER)) spec.finalizers = [...(spec.finalizers ?? []), KUBERNETES_FINALIZER];
}

function keepSpecFinalizers(namespace: Namespace, old: Namespace): void {
  if (old.spec === undefined) delete namespace.spec;
  else namespace.spec = old.spec;
}

function validateStatus(namespace: Namespace): FieldError[] {
  const phase = namespace.status?.phase;
  if (!namespace.metadata.deletionTimestamp) {
    return phase === NAMESPACE_ACTIVE ? [] : [fieldErrors.invalid('status.Phase', phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  }
  return phase === NAMESPACE_TERMINATING ? [] : [fieldErrors.invalid('status.Phase', phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
}

/** Namespace (core v1), as upstream's namespace strategy: Active when made, Terminating once deleted. */
export const NAMESPACE_STRATEGY = defineStrategy({
  nameRule: nameRules.dns1123Label,
  shape: NAMESPACE,
  status: { empty: { phase: NAMESPACE_ACTIVE }, keepsLabels: false, validate: (ns: Namespace) => validateStatus(ns) },
  generation: 'client',
  deleteReturnsObject: true,
  fieldLabels: NAMESPACE_FIELD_LABELS,
  applyDefaults: defaultNamespace,
  prepareForCreate: addContentFinalizer,
  prepareForUpdate: keepSpecFinalizers,
  canonicalize: labelWithName,
  validate: (ns: Namespace) => validateSpecFinalizers(ns.spec?.finalizers),
  // a namespace is marked Terminating by its first delete, and removed once its spec.finalizers are gone too
  holdsRemoval: (ns: Namespace) => !ns.metadata.deletionTimestamp || (ns.spec?.finalizers?.length ?? 0) > 0,
  prepareForDeletion: (ns: Namespace) => {
    ns.status = { ...ns.status, phase: NAMESPACE_TERMINATING };
  },
});

/** `{name}/finalize`: writes spec.finalizers alone (the namespace controller removes `kubernetes` through it). */
export const NAMESPACE_FINALIZE: PartStrategy = {
  prepareForUpdate: (ns: Namespace, old: Namespace) => {
    if (old.status === undefined) delete ns.status;
    else ns.status = old.status;
  },
  validateUpdate: (ns: Namespace) => validateSpecFinalizers(ns.spec?.finalizers),
};
