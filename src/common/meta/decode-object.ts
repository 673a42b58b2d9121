import { apiErrors } from '../errors/status-error';
import { groupVersion, KindDefinition } from '../registry/kind-definition';
import { isPlainObject, KubeObject, ObjectMeta } from './kube-object';

type Scalar = 'string' | 'integer' | 'boolean' | 'time' | 'stringMap' | 'stringList';
/** A Go struct: its known fields are checked, others are dropped by the decoder. */
interface Struct {
  goType: string;
  fields: Record<string, Shape>;
}
type Shape = Scalar | Struct | { listOf: Struct };

const OWNER_REFERENCE: Struct = {
  goType: 'v1.OwnerReference',
  fields: { apiVersion: 'string', kind: 'string', name: 'string', uid: 'string', controller: 'boolean', blockOwnerDeletion: 'boolean' },
};
const INITIALIZERS: Struct = {
  goType: 'v1.Initializers',
  fields: { pending: { listOf: { goType: 'v1.Initializer', fields: { name: 'string' } } }, result: { goType: 'v1.Status', fields: {} } },
};

/** The Go type of each ObjectMeta field: a body that does not fit is not decodable (400). */
const META_SHAPES: Record<keyof ObjectMeta, Shape> = {
  name: 'string',
  generateName: 'string',
  namespace: 'string',
  selfLink: 'string',
  uid: 'string',
  resourceVersion: 'string',
  generation: 'integer',
  creationTimestamp: 'time',
  deletionTimestamp: 'time',
  deletionGracePeriodSeconds: 'integer',
  labels: 'stringMap',
  annotations: 'stringMap',
  ownerReferences: { listOf: OWNER_REFERENCE },
  initializers: INITIALIZERS,
  finalizers: 'stringList',
  clusterName: 'string',
};

const GO_TYPES: Record<Scalar, string> = {
  string: 'string',
  integer: 'int64',
  boolean: 'bool',
  time: 'v1.Time',
  stringMap: 'map[string]string',
  stringList: '[]string',
};

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'object' : typeof value;
}

function fitsScalar(value: unknown, shape: Scalar): boolean {
  switch (shape) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'time':
      return typeof value === 'string' && RFC3339.test(value) && !Number.isNaN(Date.parse(value));
    case 'stringMap':
      return isPlainObject(value) && Object.values(value).every((v) => typeof v === 'string' || v === null);
    case 'stringList':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
  }
}

interface Misfit {
  /** the JSON path of the value, e.g. metadata.ownerReferences.uid */
  path: string;
  value: unknown;
  goType: string;
}

/** The first value in `value` that does not fit `shape`, or undefined when it all fits. */
function misfit(value: unknown, shape: Shape, path: string): Misfit | undefined {
  if (value === null || value === undefined) return undefined; // null leaves a Go field at its zero value
  if (typeof shape === 'string') return fitsScalar(value, shape) ? undefined : { path, value, goType: GO_TYPES[shape] };
  if ('listOf' in shape) {
    if (!Array.isArray(value)) return { path, value, goType: `[]${shape.listOf.goType}` };
    for (const item of value) {
      // unlike Go, no null items: validation reads every item as an object
      const found = item === null ? { path, value: item, goType: shape.listOf.goType } : misfit(item, shape.listOf, path);
      if (found) return found;
    }
    return undefined;
  }
  if (!isPlainObject(value)) return { path, value, goType: shape.goType };
  for (const [field, fieldShape] of Object.entries(shape.fields)) {
    const found = misfit(value[field], fieldShape, `${path}.${field}`);
    if (found) return found;
  }
  return undefined;
}

/**
 * Turns a decoded request document into an object of the endpoint's kind, as the apiserver's decoder does:
 * kind and apiVersion are checked and filled in, ObjectMeta must have the right types, unknown top-level fields
 * are dropped. Fails with 400.
 */
export function decodeObject(def: KindDefinition, document: unknown): KubeObject {
  const gv = groupVersion(def);
  const cannotHandle = (kind: string, version: string, reason: string) =>
    apiErrors.badRequest(`${kind} in version "${version}" cannot be handled as a ${def.kind}: ${reason}`);
  if (!isPlainObject(document)) {
    throw cannotHandle(def.kind, def.version, `json: cannot unmarshal ${jsonType(document)} into Go value of type struct`);
  }
  const { kind, apiVersion, metadata } = document;
  if (apiVersion !== undefined && apiVersion !== '' && apiVersion !== gv) {
    throw apiErrors.badRequest(`the API version in the data (${String(apiVersion)}) does not match the expected API version (${gv})`);
  }
  if (kind !== undefined && kind !== '' && kind !== def.kind) {
    throw cannotHandle(String(kind), def.version, `no kind "${String(kind)}" is registered for version "${gv}"`);
  }
  if (metadata !== undefined && metadata !== null && !isPlainObject(metadata)) {
    throw cannotHandle(def.kind, def.version, `json: cannot unmarshal ${jsonType(metadata)} into Go struct field ${def.kind}.metadata of type v1.ObjectMeta`);
  }
  const meta: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(metadata ?? {})) {
    if (!Object.hasOwn(META_SHAPES, field)) continue; // unknown fields are dropped
    const shape = META_SHAPES[field as keyof ObjectMeta];
    const wrong = misfit(value, shape, `metadata.${field}`);
    if (wrong) {
      throw cannotHandle(
        def.kind,
        def.version,
        `json: cannot unmarshal ${jsonType(wrong.value)} into Go struct field ObjectMeta.${wrong.path} of type ${wrong.goType}`,
      );
    }
    if (value === null) continue;
    // Go decodes a null map value as the empty string
    meta[field] = shape === 'stringMap' ? Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, v ?? ''])) : value;
  }
  const object: KubeObject = { kind: def.kind, apiVersion: gv, metadata: meta as ObjectMeta };
  for (const field of def.strategy.fields) if (document[field] !== undefined) object[field] = document[field];
  return object;
}
