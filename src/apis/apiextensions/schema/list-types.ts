import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { deepEqual } from '../../../apimachinery/meta/deep-equal';
import { isPlainObject } from '../../../apimachinery/meta/kube-object';
import { SchemaNode } from './structural-schema';

/**
 * The duplicates that a schema's list types forbid, as the apiextensions apiserver reports them: an item of a `set`
 * that equals an earlier one, or an item of a `map` whose keys (`x-kubernetes-list-map-keys`) an earlier one has.
 */
export function listTypeErrors(value: unknown, schema: SchemaNode, path = ''): FieldError[] {
  if (Array.isArray(value)) {
    const errors = duplicates(value, schema, path);
    if (schema.items) value.forEach((item, i) => errors.push(...listTypeErrors(item, schema.items as SchemaNode, `${path}[${i}]`)));
    return errors;
  }
  if (!isPlainObject(value)) return [];
  const additional = isPlainObject(schema.additionalProperties) ? (schema.additionalProperties as SchemaNode) : undefined;
  return Object.entries(value).flatMap(([name, member]) => {
    const child = schema.properties?.[name] ?? additional;
    return child ? listTypeErrors(member, child, path ? `${path}.${name}` : name) : [];
  });
}

function duplicates(items: unknown[], schema: SchemaNode, path: string): FieldError[] {
  const listType = schema['x-kubernetes-list-type'];
  if (listType === 'set') {
    return items.flatMap((item, i) => (items.slice(0, i).some((earlier) => deepEqual(earlier, item)) ? [fieldErrors.duplicate(`${path}[${i}]`, item)] : []));
  }
  if (listType !== 'map') return [];
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  const keyOf = (item: unknown) => Object.fromEntries(keys.map((key) => [key, isPlainObject(item) ? item[key] : undefined]));
  return items.flatMap((item, i) => {
    const key = keyOf(item);
    return items.slice(0, i).some((earlier) => deepEqual(keyOf(earlier), key)) ? [fieldErrors.duplicate(`${path}[${i}]`, key)] : [];
  });
}
