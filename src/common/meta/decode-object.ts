import { apiErrors } from '../errors/status-error';
import { groupVersion, KindDefinition } from '../registry/kind-definition';
import { jsonType } from './json-value';
import { isPlainObject, KubeObject, ObjectMeta, parseTime } from './kube-object';

type Shape = 'string' | 'integer' | 'boolean' | 'time' | 'stringMap' | 'stringList' | 'objectList' | 'object';

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
  ownerReferences: 'objectList',
  initializers: 'object',
  finalizers: 'stringList',
  clusterName: 'string',
};

const GO_TYPES: Record<Shape, string> = {
  string: 'string',
  integer: 'int64',
  boolean: 'bool',
  time: 'v1.Time',
  stringMap: 'map[string]string',
  stringList: '[]string',
  objectList: '[]v1.OwnerReference',
  object: 'v1.Initializers',
};


function fits(value: unknown, shape: Shape): boolean {
  if (value === null) return true; // null leaves a Go field at its zero value
  switch (shape) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'time':
      return parseTime(value) !== undefined;
    case 'stringMap':
      return isPlainObject(value) && Object.values(value).every((v) => typeof v === 'string' || v === null);
    case 'stringList':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'objectList':
      return Array.isArray(value) && value.every(isPlainObject);
    case 'object':
      return isPlainObject(value);
  }
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
    const shape = META_SHAPES[field as keyof ObjectMeta];
    if (shape === undefined) continue; // unknown fields are dropped
    if (!fits(value, shape)) {
      throw cannotHandle(
        def.kind,
        def.version,
        `json: cannot unmarshal ${jsonType(value)} into Go struct field ObjectMeta.metadata.${field} of type ${GO_TYPES[shape]}`,
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
