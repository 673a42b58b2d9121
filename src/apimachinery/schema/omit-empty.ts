import { isPlainObject } from '../meta/kube-object';
import { Field, Schema, StructSchema } from './schema';

/**
 * Whether Go leaves a value of this shape out of a field tagged `omitempty`: an empty list, map or byte string, an
 * empty string, false, 0. Structs are always written, and so are the leaves Go holds as structs (IntOrString,
 * Quantity, Time, RawExtension) and FieldsV1, which is a pointer.
 */
function isEmpty(value: unknown, schema: Schema): boolean {
  switch (schema.type) {
    case 'list':
      return Array.isArray(value) && value.length === 0;
    case 'map':
      return isPlainObject(value) && Object.keys(value).length === 0;
    case 'string':
    case 'bytes':
      return value === '';
    case 'boolean':
      return value === false;
    case 'int32':
    case 'int64':
      return value === 0;
    default:
      return false;
  }
}

const omitted = (field: Field, value: unknown) => !field.required && !field.alwaysWritten && !field.pointer && isEmpty(value, field.schema);

function omitEmptyIn(value: unknown, schema: Schema): void {
  switch (schema.type) {
    case 'struct':
      if (!isPlainObject(value)) return;
      // the members present, not every field the struct declares: an object sets few of them, and every write pays this
      for (const name in value) {
        const field = schema.jsonFields[name];
        if (field === undefined) continue;
        const item = value[name];
        if (omitted(field, item)) delete value[name];
        else omitEmptyIn(item, field.schema);
      }
      return;
    case 'list':
      if (Array.isArray(value)) for (const item of value) omitEmptyIn(item, schema.items);
      return;
    case 'map':
      if (isPlainObject(value)) for (const item of Object.values(value)) omitEmptyIn(item, schema.values);
      return;
  }
}

/**
 * Leaves out of an object of a built-in kind what Go's encoding leaves out of it (`omitempty`): empty lists and
 * maps, and the zero values of fields that are neither required, nor written always, nor pointers. So an object
 * stored here reads as the apiserver's would, and a write that only adds an empty map or list changes nothing, as
 * the apiserver's semantic equality has nil and empty alike. Objects of kinds a definition declares keep what they
 * were sent, as the apiserver keeps what their schema allows. Changes the object in place and answers it.
 */
export function omitEmpty<T>(kind: StructSchema, object: T): T {
  if (!kind.declared) omitEmptyIn(object, kind);
  return object;
}
