import { StructSchema } from '../apimachinery/schema/schema';
import { groupVersion, KindDefinition } from './kind-definition';
import { structType } from '../fieldmanager/apply-type';
import { FieldManager } from '../fieldmanager/field-manager';
import { fieldElement, FieldSet } from '../fieldmanager/field-set';
import { ConvertingFieldManager } from './converting-field-manager';
import { KindRegistry } from './kind-registry';
import { ServedVersions } from './served-versions';

/** The field manager of the server's own writes through a storage (the default RBAC policy, aggregated roles). */
export const SERVER_FIELD_MANAGER = 'kube-apiserver';

/** The paths of a kind whose writes keep managed fields: the object, its status, its Scale (kept on the object). */
export type ManagedPath = 'object' | 'status' | 'scale';

const made = new WeakMap<KindRegistry, WeakMap<KindDefinition, Map<ManagedPath, FieldManager>>>();

/**
 * The field manager of a path of a kind, made once for the registry that serves it: managers that wrote through
 * another version the registry serves the kind's stored objects in are compared in theirs.
 */
export function fieldManagerOf(def: KindDefinition, path: ManagedPath, kinds: KindRegistry): FieldManager {
  let byDef = made.get(kinds);
  if (!byDef) made.set(kinds, (byDef = new WeakMap()));
  let byPath = byDef.get(def);
  if (!byPath) byDef.set(def, (byPath = new Map()));
  let manager = byPath.get(path);
  if (!manager) {
    const shape = def.strategy.shape;
    const scope = {
      type: structType(shape),
      apiVersion: groupVersion(def),
      ...(path !== 'object' && { subresource: path }),
      reset: resetFields(def, shape, path),
      // a Scale gives the object in its stored form, which only a kind served unconverted can compare in other versions
      ...((!def.conversion || path !== 'scale') && { versions: new ServedVersions(def, kinds, (served) => resetFields(served, served.strategy.shape, path)) }),
    };
    manager = def.conversion && path !== 'scale' ? new ConvertingFieldManager(scope, def.conversion) : new FieldManager(scope);
    byPath.set(path, manager);
  }
  return manager;
}

/**
 * What a write on the path cannot change, which nobody comes to own through it (the apiserver's reset fields): the
 * status through the object, all but the status (and the labels, where the status strategy keeps them) through
 * `/status`, all but `spec.replicas` through `/scale`.
 */
function resetFields(def: KindDefinition, shape: StructSchema, path: ManagedPath): FieldSet {
  const f = fieldElement;
  const reset = new FieldSet();
  const topLevel = Object.keys(shape.jsonFields).filter((name) => name !== 'metadata');
  if (path === 'object') {
    if (def.strategy.status) reset.insert([f('status')]);
  } else if (path === 'status') {
    for (const name of topLevel) if (name !== 'status') reset.insert([f(name)]);
    if (def.strategy.status?.keepsLabels) reset.insert([f('metadata'), f('labels')]);
  } else {
    for (const name of topLevel) if (name !== 'spec') reset.insert([f(name)]);
    const spec = shape.jsonFields.spec?.schema;
    if (spec?.type === 'struct') for (const name of Object.keys(spec.jsonFields)) if (name !== 'replicas') reset.insert([f('spec'), f(name)]);
  }
  return reset;
}
