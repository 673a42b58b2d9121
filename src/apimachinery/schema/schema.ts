/**
 * The one description of the Go types this server speaks: each struct with its fields in Go's order, each field with
 * its JSON name, its protobuf field number and its patch facts. Everything else is derived from it: decoding and
 * conformance (conform.ts), the protobuf messages, the strategic merge facts.
 */
export type LeafType = 'string' | 'boolean' | 'int32' | 'int64' | 'bytes' | 'intOrString' | 'quantity' | 'time' | 'microTime' | 'fieldsV1' | 'any';

/** A value of one of the leaf types. */
export interface LeafSchema<T extends LeafType = LeafType> {
  type: T;
}

export interface ListSchema<Items extends Schema = Schema> {
  type: 'list';
  items: Items;
}

export interface MapSchema<Values extends Schema = Schema> {
  type: 'map';
  values: Values;
}

export type Schema = LeafSchema | StructSchema | ListSchema | MapSchema;

/** What a field says besides its number and shape. */
export interface FieldOptions {
  /** an embedded Go struct: JSON writes its fields into the enclosing object, protobuf keeps it a message */
  inline?: boolean;
  /** `merge`: strategic merge patch merges the list item by item (`x-kubernetes-patch-strategy`) */
  patchStrategy?: 'merge';
  /** the field identifying an item of a merged list of objects (`x-kubernetes-patch-merge-key`) */
  patchMergeKey?: string;
  /** a field the Go type requires (OpenAPI's `required`) */
  required?: boolean;
  /** the values a string field may take (OpenAPI's `enum`) */
  enum?: readonly string[];
  /** what the field means, where its name does not say it (OpenAPI's `description`, `kubectl explain`) */
  description?: string;
  /**
   * The fields identifying an item of a list server-side apply treats as a map (`x-kubernetes-list-map-keys`), where
   * the current apiserver declares other keys than the merge key. Otherwise the patch strategy implies the list type
   * (a merged list of objects is a map by its merge key, of primitives a set) and any other list is atomic.
   */
  listMapKeys?: readonly string[];
  /** a list, map or struct that server-side apply replaces whole (`x-kubernetes-list-type`/`map-type: atomic`) */
  atomic?: boolean;
  /** the value the apiserver defaults the field to (OpenAPI's `default`), where server-side apply needs it (list keys) */
  default?: string | number | boolean;
  /**
   * A field Go writes even when it is empty or zero (its tag has no `omitempty`), besides the required ones, which
   * never have it. Other fields of a built-in kind are left out when empty (see omit-empty.ts).
   */
  alwaysWritten?: boolean;
  /** a field Go holds through a pointer: written whenever it is set, even to its zero value (`replicas: 0`) */
  pointer?: boolean;
}

export interface Field extends FieldOptions {
  /** the field number of the protobuf message */
  number: number;
  schema: Schema;
}

/** A field as written in a struct: `[protobuf number, shape, ...options]`. */
export type FieldSpec = readonly [number, Schema, ...FieldOptions[]];

/** A struct's fields as written, by name. */
export type FieldSpecs = Readonly<Record<string, FieldSpec>>;

/** The key under which a struct's type carries its JSON field specs (a type only: no struct has it at run time). */
declare const jsonFieldSpecs: unique symbol;

/** A Go struct: only its fields are kept, in this order. */
export interface StructSchema<JsonSpecs extends FieldSpecs = FieldSpecs> {
  /** never set: the specs of the fields as JSON has them, kept in the type for TypeOf (type-of.ts) */
  readonly [jsonFieldSpecs]?: JsonSpecs;
  type: 'struct';
  /** the Go (and protobuf message) name */
  name: string;
  /** the protobuf package */
  package: string;
  /** the fields as declared, inline ones as one field each */
  fields: Readonly<Record<string, Field>>;
  /** the fields as JSON has them: an inline field's own fields in its place */
  jsonFields: Readonly<Record<string, Field>>;
  /**
   * For a kind a stored definition declares: the OpenAPI schema it declares (published as it is), and the sign that
   * members beside the fields are kept as sent by decoding rather than dropped (the definition's schema prunes them)
   */
  declared?: Readonly<Record<string, unknown>>;
  /** a struct that server-side apply replaces whole wherever it is used (`+structType=atomic`) */
  atomic?: boolean;
}

const leaf = <T extends LeafType>(type: T): LeafSchema<T> => ({ type });
const list = <Items extends Schema>(items: Items): ListSchema<Items> => ({ type: 'list', items });
const map = <Values extends Schema>(values: Values): MapSchema<Values> => ({ type: 'map', values });

type IsInline<Spec extends FieldSpec> = Extract<Spec[number], typeof inline> extends never ? false : true;

/** The JSON field specs of an inline field's struct; none for any other field. */
type InlineSpecs<Spec extends FieldSpec> = IsInline<Spec> extends true ? (Spec[1] extends StructSchema<infer Inner> ? Inner : never) : never;

/** The union's members together: `A | B` gives `A & B`, none gives `unknown`. */
type AllOf<Union> = [Union] extends [never]
  ? unknown
  : (Union extends unknown ? (member: Union) => void : never) extends (all: infer All) => void
    ? All
    : never;

/** One object type with the members of an intersection. */
type Flat<T> = { [Name in keyof T]: T[Name] };

/**
 * The specs of a struct's fields as JSON has them, from its field specs as written: an inline field's own fields in its
 * place, as `jsonFields` has them at run time. Computed once per struct declared, so that TypeOf stays a plain mapping.
 */
export type JsonFieldSpecs<Specs extends FieldSpecs> = Flat<
  { [Name in keyof Specs as IsInline<Specs[Name]> extends true ? never : Name]: Specs[Name] } & AllOf<
    { [Name in keyof Specs]: InlineSpecs<Specs[Name]> }[keyof Specs]
  >
>;

/** A struct of a protobuf package, from its field specs. */
export function struct<const Specs extends FieldSpecs>(pkg: string, name: string, specs: Specs): StructSchema<JsonFieldSpecs<Specs>> {
  const fields: Record<string, Field> = {};
  const jsonFields: Record<string, Field> = {};
  for (const [fieldName, [number, schema, ...options]] of Object.entries(specs)) {
    const field: Field = Object.assign({ number, schema }, ...options);
    fields[fieldName] = field;
    if (field.inline && schema.type === 'struct') Object.assign(jsonFields, schema.jsonFields);
    else jsonFields[fieldName] = field;
  }
  return { type: 'struct', name, package: pkg, fields, jsonFields };
}

/** Builders of shapes, named after the Go types. */
export const s = {
  string: leaf('string'),
  boolean: leaf('boolean'),
  int32: leaf('int32'),
  int64: leaf('int64'),
  /** base64 text in JSON */
  bytes: leaf('bytes'),
  intOrString: leaf('intOrString'),
  quantity: leaf('quantity'),
  time: leaf('time'),
  microTime: leaf('microTime'),
  /** a set of fields of server-side apply: a JSON object in JSON, its JSON text in protobuf */
  fieldsV1: leaf('fieldsV1'),
  /** a field kept as sent, whatever its shape (a RawExtension) */
  any: leaf('any'),
  list,
  map,
  stringList: list(leaf('string')),
  stringMap: map(leaf('string')),
};

/** Field options: an embedded struct (TypeOf reads it, so its type says so). */
export const inline = { inline: true } as const satisfies FieldOptions;

/** Field options: a field the Go type requires. */
export const required: FieldOptions = { required: true };

/** Field options: the values a string may take. */
export const oneOf = (...values: string[]): FieldOptions => ({ enum: values });

/** Field options: what the field means. */
export const described = (description: string): FieldOptions => ({ description });

/** Field options: a list or map server-side apply replaces whole. */
export const atomic: FieldOptions = { atomic: true };

/** Field options: a list server-side apply treats as a map keyed by these fields together. */
export const listMapKeys = (...keys: string[]): FieldOptions => ({ listMapKeys: keys });

/** Field options: the default the apiserver gives the field. */
export const defaultsTo = (value: string | number | boolean): FieldOptions => ({ default: value });

/** A struct that server-side apply replaces whole wherever it is used (`+structType=atomic`). */
export function atomicStruct<T extends StructSchema>(type: T): T {
  type.atomic = true;
  return type;
}

/** Field options: a field Go writes even when empty or zero (no `omitempty`) that is not required. */
export const alwaysWritten: FieldOptions = { alwaysWritten: true };

/** Field options: a field Go holds through a pointer, whose zero value is kept. */
export const pointer: FieldOptions = { pointer: true };

/** Field options: a list merged item by item, by `key` for lists of objects. */
export const mergedBy = (key?: string): FieldOptions => ({ patchStrategy: 'merge', patchMergeKey: key });
