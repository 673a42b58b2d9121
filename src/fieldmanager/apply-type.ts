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
        if (!field) return undefined;
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
