import { isPlainObject } from '../../../apimachinery/meta/kube-object';
import { SchemaNode } from './structural-schema';
import { copyJson } from '../../../apimachinery/meta/json-value';

/** What the root of every object keeps whatever its schema says: the type meta and ObjectMeta (checked apart). */
const ROOT_MEMBERS = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Makes a decoded object what its structural schema allows, as the apiextensions apiserver does on every write:
 * null values of fields that are not nullable are dropped, defaults fill absent fields (a default's own fields are
 * then defaulted in turn), and fields the schema does not declare are pruned, unless a node preserves unknown fields
 * (`x-kubernetes-preserve-unknown-fields`). An embedded resource keeps its type meta and metadata. The paths of the
 * pruned fields (`spec.ports[0].colour`) are added to `pruned` when given.
 */
export function defaultAndPrune(object: Record<string, unknown>, schema: SchemaNode, pruned?: string[]): void {
  visitObject(object, schema, '', pruned, ROOT_MEMBERS);
}

function visit(value: unknown, schema: SchemaNode, path: string, pruned: string[] | undefined): void {
  if (schema['x-kubernetes-int-or-string']) return;
  if (Array.isArray(value)) {
    if (schema.items) value.forEach((item, i) => visit(item, schema.items as SchemaNode, `${path}[${i}]`, pruned));
  } else if (isPlainObject(value)) {
    visitObject(value, schema, path, pruned, schema['x-kubernetes-embedded-resource'] ? ROOT_MEMBERS : undefined);
  }
}

function visitObject(object: Record<string, unknown>, schema: SchemaNode, path: string, pruned: string[] | undefined, kept?: ReadonlySet<string>): void {
  const properties = schema.properties ?? {};
  const additional = isPlainObject(schema.additionalProperties) ? (schema.additionalProperties as SchemaNode) : undefined;
  for (const [name, property] of Object.entries(properties)) {
    if (kept?.has(name)) continue;
    if (object[name] === null && !property.nullable) delete object[name];
    if (object[name] === undefined && property.default !== undefined) object[name] = copyJson(property.default);
  }
  for (const [name, value] of Object.entries(object)) {
    if (kept?.has(name)) continue;
    const property = properties[name] ?? additional;
    const at = path ? `${path}.${name}` : name;
    if (property) {
      if (value === null && !property.nullable) delete object[name];
      else visit(value, property, at, pruned);
    } else if (!schema['x-kubernetes-preserve-unknown-fields'] && schema.additionalProperties !== true) {
      delete object[name];
      pruned?.push(at);
    }
  }
}
