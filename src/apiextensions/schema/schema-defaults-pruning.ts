import { isPlainObject } from '../../apimachinery/meta/kube-object';
import { SchemaNode } from './structural-schema';

/** What the root of every object keeps whatever its schema says: the type meta and ObjectMeta (checked apart). */
const ROOT_MEMBERS = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Makes a decoded object what its structural schema allows, as the apiextensions apiserver does on every write:
 * null values of fields that are not nullable are dropped, defaults fill absent fields (a default's own fields are
 * then defaulted in turn), and fields the schema does not declare are pruned, unless a node preserves unknown fields
 * (`x-kubernetes-preserve-unknown-fields`). An embedded resource keeps its type meta and metadata.
 */
export function defaultAndPrune(object: Record<string, unknown>, schema: SchemaNode): void {
  visitObject(object, schema, ROOT_MEMBERS);
}

function visit(value: unknown, schema: SchemaNode): void {
  if (schema['x-kubernetes-int-or-string']) return;
  if (Array.isArray(value)) {
    if (schema.items) for (const item of value) visit(item, schema.items);
  } else if (isPlainObject(value)) {
    visitObject(value, schema, schema['x-kubernetes-embedded-resource'] ? ROOT_MEMBERS : undefined);
  }
}

function visitObject(object: Record<string, unknown>, schema: SchemaNode, kept?: ReadonlySet<string>): void {
  const properties = schema.properties ?? {};
  const additional = isPlainObject(schema.additionalProperties) ? (schema.additionalProperties as SchemaNode) : undefined;
  for (const [name, property] of Object.entries(properties)) {
    if (kept?.has(name)) continue;
    if (object[name] === null && !property.nullable) delete object[name];
    if (object[name] === undefined && property.default !== undefined) object[name] = structuredClone(property.default);
  }
  for (const [name, value] of Object.entries(object)) {
    if (kept?.has(name)) continue;
    const property = properties[name] ?? additional;
    if (property) {
      if (value === null && !property.nullable) delete object[name];
      else visit(value, property);
    } else if (!schema['x-kubernetes-preserve-unknown-fields'] && schema.additionalProperties !== true) {
      delete object[name];
    }
  }
}
