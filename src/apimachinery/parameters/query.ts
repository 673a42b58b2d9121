import { apiErrors } from '../errors/status-error';

export type Query = Record<string, string | string[] | undefined>;

/** The first value of a query parameter. */
export function param(query: Query, name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Go's strconv.ParseBool, with anything unparsable taken as false (how the apiserver reads `pretty`). */
export function strictBool(value: string | undefined): boolean {
  return value !== undefined && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value);
}

/** The apiserver's reading of `watch` and `includeUninitialized`: present and not false/0 means true. */
export function looseBool(value: string | undefined): boolean {
  return value !== undefined && !['false', '0'].includes(value.toLowerCase());
}

const INT32 = { min: -(2n ** 31n), max: 2n ** 31n - 1n };
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

/** An optional integer parameter; a malformed or out-of-range one gets a 400 with Go's strconv wording. */
function integerParam(query: Query, name: string, range: { min: bigint; max: bigint }): bigint | undefined {
  const value = param(query, name);
  if (value === undefined || value === '') return undefined;
  const parsing = `strconv.ParseInt: parsing ${JSON.stringify(value)}`;
  if (!/^[+-]?\d+$/.test(value)) throw apiErrors.badRequest(`${parsing}: invalid syntax`);
  const number = BigInt(value);
  if (number < range.min || number > range.max) throw apiErrors.badRequest(`${parsing}: value out of range`);
  return number;
}

export function int32Param(query: Query, name: string): number | undefined {
  const number = integerParam(query, name, INT32);
  return number === undefined ? undefined : Number(number);
}

export function int64Param(query: Query, name: string): bigint | undefined {
  return integerParam(query, name, INT64);
}

/** A resourceVersion: empty or a decimal number; anything else is a client mistake (400). */
export function resourceVersionParam(query: Query): string | undefined {
  const value = param(query, 'resourceVersion');
  if (value === undefined || value === '') return undefined;
  return parseResourceVersion(value);
}

/** resourceVersions are PostgreSQL bigints: a larger one names no version there can be. */
const MAX_RESOURCE_VERSION = 2n ** 63n - 1n;

export function parseResourceVersion(value: string): string {
  if (!/^\d+$/.test(value) || BigInt(value) > MAX_RESOURCE_VERSION) {
    throw apiErrors.badRequest(`invalid resource version ${JSON.stringify(value)}: must be a decimal number`);
  }
  return BigInt(value).toString();
}
