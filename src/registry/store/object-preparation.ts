import { randomInt, randomUUID } from 'node:crypto';
import { KindDefinition, PartStrategy, StatusStrategy } from '../kind-definition';
import { deepEqual } from '../../apimachinery/meta/deep-equal';
import { KubeObject, nowTimestamp } from '../../apimachinery/meta/kube-object';
import { copyJson } from '../../apimachinery/meta/json-value';

const NAME_CHARS = 'bcdfghjklmnpqrstvwxz0123456789';
const GENERATED_PREFIX_MAX = 58;

export function generateName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += NAME_CHARS[randomInt(NAME_CHARS.length)];
  return `${prefix.slice(0, GENERATED_PREFIX_MAX)}${suffix}`;
}

/** What the server sets on every new object, whatever its kind (the generic half of PrepareForCreate). */
export function prepareForCreate(def: KindDefinition, object: KubeObject): void {
  const meta = object.metadata;
  delete meta.selfLink;
  delete meta.resourceVersion;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.clusterName;
  meta.uid = randomUUID();
  meta.creationTimestamp = nowTimestamp();
  if (def.strategy.generation === 'client') {
    if (!meta.generation) delete meta.generation;
  } else {
    meta.generation = 1;
  }
  const status = def.strategy.status;
  if (status?.empty) object.status = copyJson(status.empty);
  else if (status) delete object.status;
  def.strategy.prepareForCreate(object);
}

/** What every update keeps from the stored object: identity, creation time, deletion marks and the generation. */
function keepStoredMeta(object: KubeObject, old: KubeObject): void {
  const meta = object.metadata;
  const oldMeta = old.metadata;
  delete meta.selfLink;
  delete meta.clusterName;
  // An update that leaves no initializer pending and no result completes initialization (as 1.7's Initializers
  // admission plugin has it).
  if (meta.initializers && !meta.initializers.pending?.length && !meta.initializers.result) delete meta.initializers;
  meta.uid = oldMeta.uid;
  meta.creationTimestamp = oldMeta.creationTimestamp;
  if (meta.deletionTimestamp === undefined && oldMeta.deletionTimestamp) meta.deletionTimestamp = oldMeta.deletionTimestamp;
  if (meta.deletionGracePeriodSeconds === undefined && oldMeta.deletionGracePeriodSeconds !== undefined) {
    meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
  }
  if (oldMeta.generation === undefined) delete meta.generation;
  else meta.generation = oldMeta.generation;
}

/**
 * The generic half of PrepareForUpdate of a write to the main resource: the stored metadata and, for kinds with
 * one, the stored status are kept; the generation goes up by the kind's rule after the kind's own preparation.
 */
export function prepareForUpdate(def: KindDefinition, object: KubeObject, old: KubeObject): void {
  keepStoredMeta(object, old);
  if (def.strategy.status) {
    if (old.status === undefined) delete object.status;
    else object.status = old.status;
  }
  def.strategy.prepareForUpdate(object, old);
  const meta = object.metadata;
  if (def.strategy.generation !== 'client' && meta.generation !== undefined && specChanged(def, object, old)) {
    meta.generation += 1;
  }
}

/**
 * PrepareForUpdate of a `/status` write: everything but the status (and the metadata the kind lets through) is
 * taken from the stored object, and the generation does not change.
 */
export function prepareForStatusUpdate(def: KindDefinition, object: KubeObject, old: KubeObject): void {
  const status = def.strategy.status as StatusStrategy;
  keepStoredMeta(object, old);
  for (const field of new Set([...Object.keys(object), ...Object.keys(old)])) {
    if (field === 'metadata' || field === 'status') continue;
    if (old[field] === undefined) delete object[field];
    else object[field] = old[field];
  }
  if (status.keepsLabels) {
    if (old.metadata.labels === undefined) delete object.metadata.labels;
    else object.metadata.labels = old.metadata.labels;
  }
  if (status.empty) object.status = { ...status.empty, ...(object.status as Record<string, unknown> | undefined) };
  else if (object.status === undefined) delete object.status;
}

/** PrepareForUpdate of a write through a subresource that writes one part of the object (see PartStrategy). */
export function prepareForPartUpdate(part: PartStrategy, object: KubeObject, old: KubeObject): void {
  keepStoredMeta(object, old);
  part.prepareForUpdate(object, old);
}

function specChanged(def: KindDefinition, object: KubeObject, old: KubeObject): boolean {
  if (def.strategy.generation === 'content') {
    const content = ({ metadata: _metadata, ...rest }: KubeObject) => rest;
    return !deepEqual(content(object), content(old));
  }
  if (!deepEqual(object.spec, old.spec)) return true;
  return (
    def.strategy.generation === 'spec-and-annotations' &&
    !deepEqual(object.metadata.annotations ?? {}, old.metadata.annotations ?? {})
  );
}

/** True when writing `object` would store exactly what is stored already. */
export function sameAsStored(object: KubeObject, stored: KubeObject): boolean {
  const strip = (o: KubeObject) => ({ ...o, metadata: { ...o.metadata, resourceVersion: undefined, selfLink: undefined } });
  return deepEqual(strip(object), strip(stored));
}
