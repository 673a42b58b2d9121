import { KubeObject } from '../../apimachinery/meta/kube-object';
import { KindDefinition } from '../kind-definition';
import { DeleteOptions } from './delete-options';

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

/**
 * The finalizers an object keeps when it is deleted with these options, as the apiserver's generic store computes
 * them: its own finalizers, less the garbage collector's two, plus `orphan` when its dependents are to be orphaned
 * and `foregroundDeletion` when they are to be deleted first, plus, on the first delete, the kind's own deletion
 * finalizers. An empty list means the object can be removed at once.
 */
export function finalizersAfterDelete(def: KindDefinition, object: KubeObject, options: DeleteOptions): string[] {
  const existing = object.metadata.finalizers ?? [];
  let orphan: boolean;
  let foreground: boolean;
  if (options.propagationPolicy !== undefined) {
    orphan = options.propagationPolicy === 'Orphan';
    foreground = options.propagationPolicy === 'Foreground';
  } else if (options.orphanDependents !== undefined) {
    orphan = options.orphanDependents;
    foreground = false;
  } else if (existing.includes(ORPHAN_FINALIZER) || existing.includes(FOREGROUND_FINALIZER)) {
    orphan = existing.includes(ORPHAN_FINALIZER);
    foreground = existing.includes(FOREGROUND_FINALIZER);
  } else {
    orphan = def.strategy.orphanDependentsByDefault;
    foreground = false;
  }
  const kept = existing.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (orphan) kept.push(ORPHAN_FINALIZER);
  if (foreground) kept.push(FOREGROUND_FINALIZER);
  if (!object.metadata.deletionTimestamp) {
    for (const finalizer of def.strategy.deletionFinalizers ?? []) if (!kept.includes(finalizer)) kept.push(finalizer);
  }
  return kept;
}
