import { jsonType, copyJson } from '../meta/json-value';
import { isPlainObject, parseTime } from '../meta/kube-object';
import { formatQuantity, parseQuantity, remembered } from './quantity';
import { LeafType, Schema, StructSchema } from './schema';

/** Why a value cannot be decoded: Go's wording without the kind prefix, which the caller adds. */
export class ShapeError extends Error {}

const INT32 = 2 ** 31;
/** Go's int32 range: -2^31 to 2^31 - 1. */
const isInt32 = (value: unknown) => Number.isInteger(value) && (value as number) >= -INT32 && (value as number) < INT32;

const GO_TYPES: Record<LeafType, string> = {
  string: 'string',
  boolean: 'bool',
  int32: 'int32',
  int64: 'int64',
  bytes: '[]uint8',
  intOrString: 'intstr.IntOrString',
  quantity: 'resource.Quantity',
  time: 'v1.Time',
  microTime: 'v1.MicroTime',
  fieldsV1: 'v1.FieldsV1',
  any: 'interface {}',
};

function goType(schema: Schema): string {
  switch (schema.type) {
    case 'struct':
      return schema.name;
    case 'list':
      return `[]${goType(schema.items)}`;
    case 'map':
      return `map[string]${goType(schema.values)}`;
    default:
      return GO_TYPES[schema.type];
  }
}

/** Where a value sits: the innermost Go struct and the JSON path from the object's root, as Go names fields. */
interface Place {
  struct: string;
  path: string;
}

/**
 * Where a caller that asked for field validation collects the unknown fields, and where the value sits: its step
 * from its parent (a member name, or `[i]` in a list; empty at the root) and the list they go to. The path is
 * written only for an unknown field, as the apiserver's strict decoding names it (`spec.containers[0].colour`):
 * every write validates its fields, and few have unknown ones.
 */
export interface UnknownFields {
  parent?: UnknownFields;
  step: string;
  found: string[];
}

const within = (unknown: UnknownFields, step: string): UnknownFields => ({ parent: unknown, step, found: unknown.found });

function pathOf(unknown: UnknownFields, member: string): string {
  const steps = [member];
  for (let at: UnknownFields | undefined = unknown; at; at = at.parent) if (at.step !== '') steps.push(at.step);
  return steps.reduceRight((path, step) => (path === '' || step.startsWith('[') ? `${path}${step}` : `${path}.${step}`), '');
}

function mismatch(value: unknown, schema: Schema, place: Place): ShapeError {
  return new ShapeError(
    `json: cannot unmarshal ${jsonType(value)} into Go struct field ${place.struct}.${place.path} of type ${goType(schema)}`,
  );
}

function leafFits(value: unknown, type: LeafType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'int32':
      return isInt32(value);
    case 'int64':
      return Number.isInteger(value);
    case 'intOrString':
      return typeof value === 'string' || isInt32(value);
    case 'quantity':
      return typeof value === 'string' || typeof value === 'number';
    case 'bytes':
      return typeof value === 'string';
    case 'time':
    case 'microTime':
      return parseTime(value) !== undefined;
    case 'fieldsV1':
      return isPlainObject(value);
    case 'any':
      return true;
  }
}

/** A struct's JSON fields with their schemas, in order: listed once per struct, not on every value decoded. */
const fieldLists = new WeakMap<StructSchema, [string, Schema][]>();

function fieldsOf(schema: StructSchema): [string, Schema][] {
  let fields = fieldLists.get(schema);
  if (!fields) fieldLists.set(schema, (fields = Object.entries(schema.jsonFields).map(([name, field]) => [name, field.schema])));
  return fields;
}

/**
 * A value as the apiserver's decoder would leave it: type-checked against the schema (ShapeError when it does not
 * fit), unknown struct fields dropped, null fields left out, quantities in canonical form.
 */
export function conform(value: unknown, schema: Schema, place: Place, unknown?: UnknownFields): unknown {
  switch (schema.type) {
    case 'struct': {
      if (!isPlainObject(value)) throw mismatch(value, schema, place);
      const out: Record<string, unknown> = {};
      for (const [field, fieldSchema] of fieldsOf(schema)) {
        const item = value[field];
        if (item === undefined || item === null) continue;
        const below = unknown && within(unknown, field);
        out[field] = conform(item, fieldSchema, { struct: schema.name, path: `${place.path}.${field}` }, below);
      }
      if (unknown) reportUnknown(value, schema.jsonFields, unknown);
      return out;
    }
    case 'list':
      if (!Array.isArray(value)) throw mismatch(value, schema, place);
      return value.map((item, i) => (item === null ? zeroOf(schema.items) : conform(item, schema.items, place, unknown && within(unknown, `[${i}]`))));
    case 'map':
      if (!isPlainObject(value)) throw mismatch(value, schema, place);
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [
          key,
          item === null ? zeroOf(schema.values) : conform(item, schema.values, place, unknown && within(unknown, key)),
        ]),
      );
    default:
      if (!leafFits(value, schema.type)) throw mismatch(value, schema, place);
      if (schema.type === 'quantity') return canonicalQuantity(value as string | number);
      if (schema.type === 'bytes') checkBase64(value as string);
      return value;
  }
}

/** Adds the members of `value` that are no field of its struct to the unknown fields. */
export function reportUnknown(value: Record<string, unknown>, fields: Readonly<Record<string, unknown>>, unknown: UnknownFields): void {
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(fields, key)) unknown.found.push(pathOf(unknown, key));
  }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Bytes are standard base64 with padding in JSON, as Go's encoding/json reads them. */
function checkBase64(text: string): void {
  if (text.length % 4 === 0 && BASE64.test(text)) return;
  const bad = text.search(/[^A-Za-z0-9+/]/);
  const at = bad >= 0 && !/^=*$/.test(text.slice(bad)) ? bad : text.length - (text.length % 4 || 4);
  throw new ShapeError(`illegal base64 data at input byte ${at}`);
}

const canonical = remembered((text) => formatQuantity(parseQuantity(text)));

function canonicalQuantity(value: string | number): string {
  try {
    return canonical(String(value));
  } catch (error) {
    throw new ShapeError((error as Error).message);
  }
}

/** Go's zero values: what a list item or map value given as null decodes to. */
const ZERO: Partial<Record<Schema['type'], unknown>> = {
  struct: {},
  string: '',
  boolean: false,
  int32: 0,
  int64: 0,
  intOrString: 0,
  quantity: '0',
};

const zeroOf = (schema: Schema): unknown => copyJson(ZERO[schema.type] ?? null);
