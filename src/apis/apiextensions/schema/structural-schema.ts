import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { isPlainObject } from '../../../apimachinery/meta/kube-object';

/** An openAPIV3Schema node, as a definition declares it. */
export interface SchemaNode {
  type?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  required?: string[];
  default?: unknown;
  nullable?: boolean;
  description?: string;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  [keyword: string]: unknown;
}

const TYPES = ['object', 'array', 'string', 'integer', 'number', 'boolean'];
/** Keywords a structural schema may not use (they would let a value have more than one shape). */
const FORBIDDEN = ['$ref', 'additionalItems', 'patternProperties', 'dependencies', 'definitions', 'id', '$schema'];
const METADATA_ALLOWED = new Set(['type', 'properties', 'description', 'nullable']);

/**
 * Checks that a definition's schema is structural, as the apiextensions apiserver requires of v1 definitions: every
 * node has a type (unless it preserves unknown fields or is int-or-string), objects declare properties or
 * additionalProperties but not both, arrays declare items, the root is an object, and `metadata` restricts nothing
 * but name and generateName. Errors name the schema's paths as upstream does (`properties[spec].type`).
 */
export function structuralErrors(field: string, schema: unknown): FieldError[] {
  const errors: FieldError[] = [];
  if (!isPlainObject(schema)) return [fieldErrors.invalid(field, schema, 'must be an object')];
  const root = schema as SchemaNode;
  if (!root.type) errors.push(fieldErrors.required(`${field}.type`, 'must not be empty at the root'));
  else if (root.type !== 'object') errors.push(fieldErrors.invalid(`${field}.type`, root.type, 'must be object at the root'));
  const metadata = root.properties?.metadata;
  if (isPlainObject(metadata)) errors.push(...metadataErrors(`${field}.properties[metadata]`, metadata as SchemaNode));
  checkNode(field, root, true, errors);
  return errors;
}

function metadataErrors(field: string, metadata: SchemaNode): FieldError[] {
  const extra = Object.keys(metadata).filter((k) => !METADATA_ALLOWED.has(k));
  const names = Object.keys(metadata.properties ?? {}).filter((k) => k !== 'name' && k !== 'generateName');
  if (extra.length === 0 && names.length === 0 && (!metadata.type || metadata.type === 'object')) return [];
  return [fieldErrors.forbidden(field, 'must not specify anything other than name and generateName, but metadata is implicitly specified')];
}

function checkNode(field: string, node: SchemaNode, root: boolean, errors: FieldError[]): void {
  for (const keyword of FORBIDDEN) if (node[keyword] !== undefined) errors.push(fieldErrors.forbidden(`${field}.${keyword}`, 'must not be used in a structural schema'));
  const typeless = node['x-kubernetes-preserve-unknown-fields'] === true || node['x-kubernetes-int-or-string'] === true;
  if (!root) {
    if (!node.type && !typeless) errors.push(fieldErrors.required(`${field}.type`, 'must not be empty for specified object fields'));
  }
  if (node.type !== undefined && !TYPES.includes(node.type)) errors.push(fieldErrors.notSupported(`${field}.type`, node.type, TYPES));
  if (node.properties !== undefined && node.additionalProperties !== undefined && node.additionalProperties !== false) {
    errors.push(fieldErrors.forbidden(`${field}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
  }
  if (node.type === 'array' && node.items === undefined) errors.push(fieldErrors.required(`${field}.items`, 'must be specified'));
  checkListType(field, node, errors);
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    if (!isPlainObject(child)) errors.push(fieldErrors.invalid(`${field}.properties[${name}]`, child, 'must be a schema object'));
    else checkNode(`${field}.properties[${name}]`, child as SchemaNode, false, errors);
  }
  if (isPlainObject(node.additionalProperties)) checkNode(`${field}.additionalProperties`, node.additionalProperties as SchemaNode, false, errors);
  if (isPlainObject(node.items)) checkNode(`${field}.items`, node.items as SchemaNode, false, errors);
  else if (node.items !== undefined) errors.push(fieldErrors.forbidden(`${field}.items`, 'items must be a schema object and not an array'));
}

/** `x-kubernetes-list-type` is for arrays; `map` needs the keys, which must be required scalar fields of the items. */
function checkListType(field: string, node: SchemaNode, errors: FieldError[]): void {
  const listType = node['x-kubernetes-list-type'];
  const keys = node['x-kubernetes-list-map-keys'];
  if (listType === undefined) {
    if (keys !== undefined) errors.push(fieldErrors.forbidden(`${field}.x-kubernetes-list-map-keys`, 'must be empty if x-kubernetes-list-type is not map'));
    return;
  }
  if (!['atomic', 'set', 'map'].includes(listType)) {
    errors.push(fieldErrors.notSupported(`${field}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
  }
  if (node.type !== 'array') errors.push(fieldErrors.invalid(`${field}.type`, node.type, 'must be array if x-kubernetes-list-type is specified'));
  if (listType !== 'map') return;
  if (!Array.isArray(keys) || keys.length === 0) {
    errors.push(fieldErrors.required(`${field}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
    return;
  }
  const items = node.items;
  if (!items || items.type !== 'object') {
    errors.push(fieldErrors.invalid(`${field}.items.type`, items?.type, 'must be object if parent array\'s x-kubernetes-list-type is map'));
    return;
  }
  keys.forEach((key, i) => {
    const keyType = items.properties?.[key]?.type;
    if (!keyType || !['string', 'integer', 'number', 'boolean'].includes(keyType)) {
      errors.push(fieldErrors.invalid(`${field}.x-kubernetes-list-map-keys[${i}]`, key, 'must be a scalar field of the items'));
    }
  });
}
