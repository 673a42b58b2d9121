import { Field, FieldOptions, Schema, StructSchema } from '../apimachinery/schema/schema';

/**
 * How server-side apply sees a value, derived from the kind's schema as the apiserver derives it from its OpenAPI:
 * structs and maps merge key by key unless atomic; a list is a map of items by key fields, a set of primitives, or
 * atomic (replaced whole, owned as one field); leaves are atomic.
 */
export type ApplyType = AtomicType | StructType | MapType | SetType | KeyedListType;

export interface AtomicType {
  kind: 'atomic';
}

export interface StructType {
  kind: 'struct';
  /** the type of a field as JSON names it; undefined for a field the struct does not have */
  field(name: string): ApplyType | undefined;
}

export interface MapType {
  kind: 'map';
  values: ApplyType;
}

export interface SetType {
  kind: 'set';
}

export interface KeyedListType {
  kind: 'keyed';
  items: ApplyType;
  /** the fields that identify an item, in the order of their names */
  keys: readonly string[];
  /** what a key field is when an item leaves it out (the apiserver's default for it) */
  defaults: Readonly<Record<string, unknown>>;
}

const ATOMIC: AtomicType = { kind: 'atomic' };
const SET: SetType = { kind: 'set' };

const structTypes = new WeakMap<StructSchema, StructType>();
const fieldTypes = new WeakMap<Field, ApplyType>();

/** The apply type of a kind's (or any struct's) values. */
export function structType(schema: StructSchema): ApplyType {
  if (schema.atomic) return ATOMIC;
  let type = structTypes.get(schema);
  if (!type) {
    type = {
      kind: 'struct',
      field(name) {
        const field = Object.hasOwn(schema.jsonFields, name) ? schema.jsonFields[name] : undefined;
        if (!field) return schema.declared ? declaredType(schema.declared).field(name) : undefined;
        let found = fieldTypes.get(field);
        if (!found) fieldTypes.set(field, (found = typeOf(field.schema, field)));
        return found;
      },
    };
    structTypes.set(schema, type);
  }
  return type;
}

function typeOf(schema: Schema, options: FieldOptions): ApplyType {
  switch (schema.type) {
    case 'struct':
      return structType(schema);
    case 'map':
      return options.atomic ? ATOMIC : { kind: 'map', values: typeOf(schema.values, {}) };
    case 'list':
      return listType(schema.items, options);
    default:
      return ATOMIC;
  }
}

/** How apply treats a list (`x-kubernetes-list-type`, and `x-kubernetes-list-map-keys` of a map). */
export type ListType = { type: 'atomic' } | { type: 'set' } | { type: 'map'; keys: readonly string[] };

export function listTypeOf(items: Schema, options: FieldOptions): ListType {
  if (options.atomic) return { type: 'atomic' };
  const keys = options.listMapKeys ?? (options.patchMergeKey ? [options.patchMergeKey] : undefined);
  if (keys && items.type === 'struct') return { type: 'map', keys };
  if (options.patchStrategy === 'merge' && items.type !== 'struct' && items.type !== 'list' && items.type !== 'map') return { type: 'set' };
  return { type: 'atomic' };
}

function listType(items: Schema, options: FieldOptions): ApplyType {
  const declared = listTypeOf(items, options);
  if (declared.type !== 'map' || items.type !== 'struct') return declared.type === 'set' ? SET : ATOMIC;
  const defaults: Record<string, unknown> = {};
  for (const key of declared.keys) {
    const value = items.jsonFields[key]?.default;
    if (value !== undefined) defaults[key] = value;
  }
  return { kind: 'keyed', items: structType(items), keys: [...declared.keys].sort(), defaults };
}

/** An OpenAPI v3 schema as a definition declares it (a CustomResourceDefinition's `openAPIV3Schema`). */
type OpenApiSchema = Readonly<Record<string, unknown>>;

const declaredTypes = new WeakMap<OpenApiSchema, ApplyType & StructType>();

/**
 * The apply type of a value a definition's schema declares, read as the apiserver reads `x-kubernetes-*`: objects
 * with properties merge field by field and those with additionalProperties key by key (unless
 * `x-kubernetes-map-type: atomic`); arrays are atomic unless `x-kubernetes-list-type` makes them a set or a map of
 * items keyed by `x-kubernetes-list-map-keys`; anything else is atomic.
 */
function declaredType(schema: OpenApiSchema): StructType {
  let type = declaredTypes.get(schema);
  if (!type) {
    const properties = (schema.properties ?? {}) as Record<string, OpenApiSchema>;
    type = { kind: 'struct', field: (name) => (Object.hasOwn(properties, name) ? declaredValueType(properties[name]) : undefined) };
    declaredTypes.set(schema, type);
  }
  return type;
}

function declaredValueType(schema: OpenApiSchema): ApplyType {
  if (schema['x-kubernetes-map-type'] === 'atomic') return ATOMIC;
  if (schema.type === 'object' || schema.properties || schema.additionalProperties) {
    if (schema.properties) return declaredType(schema);
    const values = schema.additionalProperties;
    return typeof values === 'object' && values !== null ? { kind: 'map', values: declaredValueType(values as OpenApiSchema) } : ATOMIC;
  }
  if (schema.type !== 'array' || typeof schema.items !== 'object' || schema.items === null) return ATOMIC;
  const items = schema.items as OpenApiSchema;
  if (schema['x-kubernetes-list-type'] === 'set') return SET;
  const keys = schema['x-kubernetes-list-map-keys'];
  if (schema['x-kubernetes-list-type'] !== 'map' || !Array.isArray(keys)) return ATOMIC;
  const properties = (items.properties ?? {}) as Record<string, OpenApiSchema>;
  const defaults: Record<string, unknown> = {};
  for (const key of keys as string[]) if (properties[key]?.default !== undefined) defaults[key] = properties[key].default;
  return { kind: 'keyed', items: declaredValueType(items), keys: [...(keys as string[])].sort(), defaults };
}
