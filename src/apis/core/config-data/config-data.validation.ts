import { deepEqual } from '../../../apimachinery/meta/deep-equal';
import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { DNS1123_SUBDOMAIN_MAX } from '../../../apimachinery/validation/names';

/** What all the values of a ConfigMap or a Secret may hold together, in bytes (upstream's MaxSecretSize). */
export const MAX_DATA_SIZE = 1024 * 1024;

const CONFIG_KEY = '[-._a-zA-Z0-9]+';
const CONFIG_KEY_RE = new RegExp(`^(?:${CONFIG_KEY})$`);

/** The messages upstream's IsConfigMapKey gives for a key of `data`, `binaryData` or `stringData` (none: valid). */
export function configKeyErrors(key: string): string[] {
  const errors: string[] = [];
  if (key.length > DNS1123_SUBDOMAIN_MAX) errors.push(`must be no more than ${DNS1123_SUBDOMAIN_MAX} characters`);
  if (!CONFIG_KEY_RE.test(key)) {
    errors.push(
      `a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '${CONFIG_KEY}')`,
    );
  }
  if (key === '.') errors.push("must not be '.'");
  else if (key === '..') errors.push("must not be '..'");
  else if (key.startsWith('..')) errors.push("must not start with '..'");
  return errors;
}

/** One error per bad key of a map, at `<field>[<key>]`. */
export function keyErrors(values: Readonly<Record<string, unknown>> | undefined, field: string): FieldError[] {
  return Object.keys(values ?? {}).flatMap((key) => configKeyErrors(key).map((message) => fieldErrors.invalid(`${field}[${key}]`, key, message)));
}

/** The size of a map's values in bytes: UTF-8 text, or the bytes base64 text stands for. */
export function dataSize(values: Readonly<Record<string, string>> | undefined, encoding: 'utf8' | 'base64'): number {
  let size = 0;
  for (const value of Object.values(values ?? {})) size += Buffer.byteLength(value, encoding);
  return size;
}

const IMMUTABLE = 'field is immutable when `immutable` is set';

/**
 * An update of an object that was made immutable (`immutable: true`) may change its metadata only: `immutable` stays
 * true and the `fields` (its data maps) stay as they were.
 */
export function immutableDataErrors<Field extends string, T extends { immutable?: boolean } & Partial<Record<Field, Record<string, string>>>>(
  object: T,
  old: T,
  fields: readonly Field[],
): FieldError[] {
  if (old.immutable !== true) return [];
  const errors = object.immutable === true ? [] : [fieldErrors.forbidden('immutable', IMMUTABLE)];
  for (const field of fields) {
    // absent counts as empty, as omitEmpty leaves it
    if (!deepEqual(object[field] ?? {}, old[field] ?? {})) errors.push(fieldErrors.forbidden(field, IMMUTABLE));
  }
  return errors;
}
