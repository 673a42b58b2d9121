import { apiErrors } from '../apimachinery/errors/status-error';
import { groupVersion, KindDefinition, KindStrategy } from './kind-definition';
import { conform, reportUnknown, ShapeError } from '../apimachinery/schema/conform';
import { jsonType } from '../apimachinery/meta/json-value';
import { isPlainObject, KubeObject, ObjectMeta } from '../apimachinery/meta/kube-object';

/** What a body is decoded as: a kind of the registry, or a subresource's kind (Scale, DeploymentRollback). */
export type DecodeTarget = Pick<KindDefinition, 'group' | 'version' | 'kind'> & { strategy: Pick<KindStrategy, 'shape' | 'prunedFields'> };

/** The 400 of a body the decoder cannot make an object of the endpoint's kind from. */
export const cannotHandle = (def: Pick<DecodeTarget, 'version' | 'kind'>, kind: string, reason: string) =>
  apiErrors.badRequest(`${kind} in version "${def.version}" cannot be handled as a ${def.kind}: ${reason}`);

const TYPE_META = { kind: true, apiVersion: true };

/**
 * Turns a decoded request document into an object of the endpoint's kind, as the apiserver's decoder does:
 * kind and apiVersion are checked and filled in, metadata and the kind's fields must have their Go types, unknown
 * fields are dropped (and their paths added to `unknownFields` when the caller validates fields). Fails with 400.
 */
export function decodeObject(def: DecodeTarget, document: unknown, unknownFields?: string[]): KubeObject {
  const gv = groupVersion(def);
  if (!isPlainObject(document)) {
    throw cannotHandle(def, def.kind, `json: cannot unmarshal ${jsonType(document)} into Go value of type struct`);
  }
  const { kind, apiVersion } = document;
  if (apiVersion !== undefined && apiVersion !== '' && apiVersion !== gv) {
    throw apiErrors.badRequest(`the API version in the data (${String(apiVersion)}) does not match the expected API version (${gv})`);
  }
  if (kind !== undefined && kind !== '' && kind !== def.kind) {
    throw cannotHandle(def, String(kind), `no kind "${String(kind)}" is registered for version "${gv}"`);
  }
  const object: Record<string, unknown> = { kind: def.kind, apiVersion: gv, metadata: {} };
  try {
    for (const [field, { schema }] of Object.entries(def.strategy.shape.jsonFields)) {
      const value = document[field];
      if (value === undefined || value === null) continue;
      object[field] = conform(value, schema, { struct: def.kind, path: field }, unknownFields && { step: field, found: unknownFields });
    }
    const { jsonFields, declared } = def.strategy.shape;
    if (declared) {
      keepUndeclared(document, jsonFields, object);
      if (unknownFields && def.strategy.prunedFields) unknownFields.push(...def.strategy.prunedFields(object as KubeObject));
    }
    else if (unknownFields) reportUnknown(document, { ...TYPE_META, ...jsonFields }, { step: '', found: unknownFields });
  } catch (error) {
    if (error instanceof ShapeError) throw cannotHandle(def, def.kind, error.message);
    throw error;
  }
  return object as KubeObject & { metadata: ObjectMeta };
}

/** Copies the members the shape does not declare, as sent, after the declared ones. */
function keepUndeclared(document: Record<string, unknown>, declared: object, object: Record<string, unknown>): void {
  for (const [field, value] of Object.entries(document)) {
    if (!(field in declared) && !(field in TYPE_META) && value !== undefined) object[field] = value;
  }
}
