/** The JSON shape every stored kind shares. Everything beyond metadata is kind-specific and kept as plain JSON. */
export interface OwnerReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  uid?: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  selfLink?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string | null;
  deletionGracePeriodSeconds?: number | null;
  labels?: Record<string, string> | null;
  annotations?: Record<string, string> | null;
  ownerReferences?: OwnerReference[] | null;
  initializers?: { pending?: { name?: string }[] | null; result?: unknown } | null;
  finalizers?: string[] | null;
  clusterName?: string;
  managedFields?: ManagedFieldsEntry[] | null;
}

/** One field manager's entry in `metadata.managedFields` (server-side apply). */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

export interface KubeObject {
  kind?: string;
  apiVersion?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

/** ObjectMeta keys in the apiserver's (Go struct) order, used to write metadata in a familiar order. */
export const OBJECT_META_ORDER: readonly (keyof ObjectMeta)[] = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'initializers',
  'finalizers',
  'clusterName',
  'managedFields',
];

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

let stampedSecond = NaN;
let stamp = '';

/** A time (milliseconds since the epoch) as the apiserver writes it: RFC 3339, UTC, whole seconds. */
export const formatTimestamp = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/** The time now as the apiserver writes it. Made once a second: every create and update writes it once or twice. */
export function nowTimestamp(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== stampedSecond) {
    stampedSecond = second;
    stamp = formatTimestamp(second * 1000);
  }
  return stamp;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number written at `from` in `count` decimal digits, or -1. */
function digitsAt(text: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}

/** The form the apiserver writes, `2017-08-01T10:00:00Z`, read without Date.parse (it is on every object). */
function parseUtc(text: string): number | undefined {
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const valid =
    year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= DAYS_IN_MONTH[month - 1] + (leap ? 1 : 0) &&
    hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59;
  if (!valid) return undefined;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  return year < 100 ? new Date(ms).setUTCFullYear(year) : ms; // Date.UTC reads years 0-99 as 1900-1999
}

/** Milliseconds since the epoch of an RFC 3339 time, or undefined when the value is not one. */
export function parseTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const canonical =
    value.length === 20 && value[4] === '-' && value[7] === '-' && value[10] === 'T' && value[13] === ':' && value[16] === ':' && value[19] === 'Z';
  if (canonical) return parseUtc(value);
  if (!RFC3339.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}
