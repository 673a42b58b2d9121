import { FieldError, fieldErrors } from '../errors/field-error';
import { dns1123Label, labelValue, NameRule, pathSegmentName, qualifiedName } from '../validation/names';
import { deepEqual } from './deep-equal';
import { ObjectMeta } from './kube-object';

const ANNOTATIONS_MAX_BYTES = 256 * 1024;
const ORPHAN = 'orphan';
const FOREGROUND = 'foregroundDeletion';

/** What the metadata rules need to know of a kind: its scope and the rule for its names. */
export interface MetadataScope {
  namespaced: boolean;
  strategy: { nameRule: NameRule };
}

/** The messages of a full name check: the path-segment rule, then the kind's rule. */
export function nameErrors(def: MetadataScope, name: string, prefix: boolean): string[] {
  const segment = pathSegmentName(name, prefix);
  return segment.length > 0 ? segment : def.strategy.nameRule(name, prefix);
}

export function validateLabels(labels: Record<string, string> | null | undefined, field: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(labels ?? {})) {
    for (const message of qualifiedName(key)) errors.push(fieldErrors.invalid(field, key, message));
    for (const message of labelValue(value)) errors.push(fieldErrors.invalid(field, value, message));
  }
  return errors;
}

export function validateAnnotations(annotations: Record<string, string> | null | undefined, field: string): FieldError[] {
  const errors: FieldError[] = [];
  let size = 0;
  for (const [key, value] of Object.entries(annotations ?? {})) {
    for (const message of qualifiedName(key.toLowerCase())) errors.push(fieldErrors.invalid(field, key, message));
    size += key.length + value.length;
  }
  if (size > ANNOTATIONS_MAX_BYTES) errors.push(fieldErrors.tooLong(field, ANNOTATIONS_MAX_BYTES));
  return errors;
}

function validateFinalizers(finalizers: string[] | null | undefined, field: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const finalizer of finalizers ?? []) {
    for (const message of qualifiedName(finalizer)) errors.push(fieldErrors.invalid(field, finalizer, message));
  }
  if (finalizers?.includes(ORPHAN) && finalizers.includes(FOREGROUND)) {
    errors.push(fieldErrors.invalid(field, finalizers, `finalizer ${ORPHAN} and ${FOREGROUND} cannot be both set`));
  }
  return errors;
}

function validateOwnerReferences(meta: ObjectMeta, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const references = meta.ownerReferences ?? [];
  for (const reference of references) {
    const apiVersion = reference.apiVersion ?? '';
    const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
    if (!version) errors.push(fieldErrors.invalid(`${field}.apiVersion`, apiVersion, 'version must not be empty'));
    if (!reference.kind) errors.push(fieldErrors.invalid(`${field}.kind`, reference.kind ?? '', 'kind must not be empty'));
    if (!reference.name) errors.push(fieldErrors.invalid(`${field}.name`, reference.name ?? '', 'name must not be empty'));
    if (!reference.uid) errors.push(fieldErrors.invalid(`${field}.uid`, reference.uid ?? '', 'uid must not be empty'));
    if (version === 'v1' && reference.kind === 'Event') {
      errors.push(fieldErrors.invalid(field, reference.kind, 'is disallowed from being an owner'));
    }
  }
  const controllers = references.filter((r) => r.controller === true);
  if (controllers.length > 1) {
    errors.push(
      fieldErrors.invalid(
        field,
        references,
        `Only one reference can have Controller set to true. Found "true" in references for ${controllers
          .map((r) => `${r.kind}/${r.name}`)
          .join(' and ')}`,
      ),
    );
  }
  return errors;
}

function validateInitializers(meta: ObjectMeta, field: string): FieldError[] {
  const initializers = meta.initializers;
  if (!initializers) return [];
  const errors: FieldError[] = [];
  const pending = initializers.pending ?? [];
  pending.forEach((entry, i) => {
    for (const message of qualifiedName(entry?.name ?? '')) {
      errors.push(fieldErrors.invalid(`${field}.pending[${i}].name`, entry?.name ?? '', message));
    }
  });
  if (pending.length === 0 && !initializers.result) {
    errors.push(fieldErrors.invalid(`${field}.pending`, 'null', 'must be non-empty when result is not set'));
  }
  const result = initializers.result as { status?: unknown } | undefined;
  if (result && result.status !== 'Failure') {
    errors.push(fieldErrors.invalid(`${field}.result.status`, result.status ?? '', 'must be Failure'));
  }
  return errors;
}

/** The ObjectMeta rules every kind shares, as upstream's `ValidateObjectMeta`, for a new object. */
export function validateObjectMeta(def: MetadataScope, meta: ObjectMeta): FieldError[] {
  const errors: FieldError[] = [];
  if (!meta.name) {
    if (!meta.generateName) errors.push(fieldErrors.required('metadata.name', 'name or generateName is required'));
  } else {
    for (const message of nameErrors(def, meta.name, false)) errors.push(fieldErrors.invalid('metadata.name', meta.name, message));
  }
  if (meta.generateName) {
    for (const message of nameErrors(def, meta.generateName, true)) {
      errors.push(fieldErrors.invalid('metadata.generateName', meta.generateName, message));
    }
  }
  if (def.namespaced) {
    if (!meta.namespace) errors.push(fieldErrors.required('metadata.namespace'));
    else for (const message of dns1123Label(meta.namespace)) errors.push(fieldErrors.invalid('metadata.namespace', meta.namespace, message));
  } else if (meta.namespace) {
    errors.push(fieldErrors.forbidden('metadata.namespace', 'not allowed on this type'));
  }
  if ((meta.generation ?? 0) < 0) errors.push(fieldErrors.invalid('metadata.generation', meta.generation, 'must be greater than or equal to 0'));
  errors.push(...validateLabels(meta.labels, 'metadata.labels'));
  errors.push(...validateAnnotations(meta.annotations, 'metadata.annotations'));
  errors.push(...validateOwnerReferences(meta, 'metadata.ownerReferences'));
  errors.push(...validateFinalizers(meta.finalizers, 'metadata.finalizers'));
  errors.push(...validateInitializers(meta, 'metadata.initializers'));
  return errors;
}

/** The ObjectMeta rules of an update: those of a new object plus what may not change. */
export function validateObjectMetaUpdate(def: MetadataScope, meta: ObjectMeta, old: ObjectMeta): FieldError[] {
  const errors = validateObjectMeta(def, meta);
  const immutableDeletion = 'field is immutable; may only be changed via deletion';
  if (!deepEqual(meta.deletionTimestamp ?? null, old.deletionTimestamp ?? null)) {
    errors.push(fieldErrors.invalid('metadata.deletionTimestamp', meta.deletionTimestamp, immutableDeletion));
  }
  if (!deepEqual(meta.deletionGracePeriodSeconds ?? null, old.deletionGracePeriodSeconds ?? null)) {
    errors.push(fieldErrors.invalid('metadata.deletionGracePeriodSeconds', meta.deletionGracePeriodSeconds, immutableDeletion));
  }
  if (old.deletionTimestamp) {
    const added = (meta.finalizers ?? []).filter((f) => !(old.finalizers ?? []).includes(f));
    if (added.length > 0) {
      errors.push(
        fieldErrors.forbidden(
          'metadata.finalizers',
          `no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added)}`,
        ),
      );
    }
  }
  if (meta.initializers && !old.initializers) {
    errors.push(fieldErrors.invalid('metadata.initializers', 'null', 'field is immutable once initialization has completed'));
  }
  const oldResult = old.initializers?.result;
  if (oldResult && !deepEqual(meta.initializers?.result, oldResult)) {
    errors.push(fieldErrors.invalid('metadata.initializers.result', meta.initializers?.result ?? null, 'field is immutable once set'));
  }
  if (meta.generation !== undefined && old.generation !== undefined && meta.generation < old.generation) {
    errors.push(fieldErrors.invalid('metadata.generation', meta.generation, 'must not be decremented'));
  }
  return errors;
}
