import { JsonSchema } from './schema-object';

const TYPE_META: JsonSchema = {
  apiVersion: { type: 'string', description: 'The versioned schema of this object: its group and version.' },
  kind: { type: 'string', description: 'The kind of this object.' },
};

const PRESERVES = 'x-kubernetes-preserve-unknown-fields';

/**
 * A schema as Swagger 2.0 (and kubectl 1.20's validation) can read it, as the apiextensions apiserver publishes v2:
 * no `nullable`, `anyOf`, `oneOf` or `not`, and a node that keeps unknown fields says nothing of its fields, so
 * that a client does not refuse what the server keeps.
 */
function toV2(node: JsonSchema): JsonSchema {
  if (node[PRESERVES] === true) return { ...(node.description !== undefined && { description: node.description }), [PRESERVES]: true };
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'nullable' || keyword === 'anyOf' || keyword === 'oneOf' || keyword === 'not') continue;
    if (keyword === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([name, child]) => [name, toV2(child)]));
    } else if ((keyword === 'items' || keyword === 'additionalProperties') && typeof value === 'object' && value !== null) {
      out[keyword] = toV2(value as JsonSchema);
    } else if (keyword === 'allOf') {
      out.allOf = (value as JsonSchema[]).map(toV2);
    } else {
      out[keyword] = value;
    }
  }
  return out;
}

/**
 * The OpenAPI definition of a kind a stored definition declares: its schema, with apiVersion, kind and metadata as
 * every kind has them (`metadata` refers to ObjectMeta), and the definition's own properties after them.
 */
export function declaredDefinition(declared: Readonly<Record<string, unknown>>, metadata: JsonSchema, v2: boolean, extensions: JsonSchema): JsonSchema {
  const published = v2 ? toV2(declared as JsonSchema) : { ...declared };
  if (v2 && published[PRESERVES] === true) return { type: 'object', ...published, ...extensions };
  const { metadata: _declaredMetadata, ...own } = (published.properties ?? {}) as Record<string, JsonSchema>;
  return { ...published, type: 'object', properties: { ...TYPE_META, metadata, ...own }, ...extensions };
}
