import { randomInt, randomUUID } from 'node:crypto';
import { KindDefinition } from '../registry/kind-definition';
import { deepEqual } from '../meta/deep-equal';
import { KubeObject, nowTimestamp } from '../meta/kube-object';

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
  if (def.strategy.hasStatus) object.status = {};
  def.strategy.prepareForCreate(object);
}

/**
 * What an update keeps from the stored object, whatever its kind (the generic half of PrepareForUpdate): identity,
 * creation time, deletion marks, the generation (bumped by the kind's rule) and, for kinds with one, the status.
 */
export function prepareForUpdate(def: KindDefinition, object: KubeObject, old: KubeObject): void {
  const meta = object.metadata;
  const oldMeta = old.metadata;
  delete meta.selfLink;
  delete meta.clusterName;
  // An update that leaves no initializer pending and no result completes initialization (reference §10.4).
  if (meta.initializers && !meta.initializers.pending?.length && !meta.initializers.result) delete meta.initializers;
  meta.uid = oldMeta.uid;
  meta.creationTimestamp = oldMeta.creationTimestamp;
  if (meta.deletionTimestamp === undefined && oldMeta.deletionTimestamp) meta.deletionTimestamp = oldMeta.deletionTimestamp;
  if (meta.deletionGracePeriodSeconds === undefined && oldMeta.deletionGracePeriodSeconds !== undefined) {
    meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
  }
  if (oldMeta.generation === undefined) delete meta.generation;
  else meta.generation = oldMeta.generation;
  if (def.strategy.hasStatus) {
    if (old.status === undefined) delete object.status;
    else object.status = old.status;
  }
  if (def.strategy.generation !== 'client' && meta.generation !== undefined && specChanged(def, object, old)) {
    meta.generation += 1;
  }
  def.strategy.prepareForUpdate(object, old);
}

function specChanged(def: KindDefinition, object: KubeObject, old: KubeObject): boolean {
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
