import { isPlainObject, parseTime } from '../../../apimachinery/meta/kube-object';
import { mismatch } from './mapping-error';

export type JsonObject = Record<string, unknown>;

/** Objects carried inside a message as bytes (a watch event's object): enveloped protobuf. */
export interface EmbeddedObjects {
  encode(object: JsonObject): Uint8Array;
  decode(bytes: Uint8Array): JsonObject;
}

/** A message whose JSON form is not an object of its fields. */
export interface ValueMapping {
  /** the message fields a JSON value stands for */
  toMessage(value: unknown, embedded: EmbeddedObjects): JsonObject;
  /** the JSON value of decoded message fields; undefined leaves the field out */
  fromMessage(fields: JsonObject, embedded: EmbeddedObjects): unknown;
}

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const RUNTIME = 'k8s.io.apimachinery.pkg.runtime';

/** `{seconds, nanos}` of an RFC 3339 time; the fraction is read from the text, as Date keeps only milliseconds. */
function timeToMessage(value: unknown): JsonObject {
  const ms = parseTime(value);
  if (ms === undefined) throw mismatch('an RFC 3339 time', value);
  const seconds = Math.floor(ms / 1000);
  const fraction = (value as string).length > 20 ? /\.(\d+)/.exec(value as string) : null;
  const nanos = fraction ? Number(fraction[1].slice(0, 9).padEnd(9, '0')) : 0;
  return nanos === 0 ? { seconds } : { seconds, nanos };
}

const SECONDS_PER_DAY = 86400;
const MAX_CACHED_DAYS = 4096;
/** `YYYY-MM-DD` by day number: times on an object fall on few days, and Date is slow to format */
const dayTexts = new Map<number, string>();
const twoDigits = (n: number) => (n < 10 ? `0${n}` : String(n));

/** RFC 3339 in UTC with `digits` fraction digits; an empty message is the zero time, which JSON leaves out. */
function timeFromMessage(fields: JsonObject, digits: number): string | undefined {
  if (fields.seconds === undefined && fields.nanos === undefined) return undefined;
  const seconds = (fields.seconds as number) ?? 0;
  const day = Math.floor(seconds / SECONDS_PER_DAY);
  let date = dayTexts.get(day);
  if (date === undefined) {
    date = new Date(day * SECONDS_PER_DAY * 1000).toISOString().slice(0, 10);
    if (dayTexts.size >= MAX_CACHED_DAYS) dayTexts.clear();
    dayTexts.set(day, date);
  }
  const second = seconds - day * SECONDS_PER_DAY;
  const clock = `${twoDigits(Math.floor(second / 3600))}:${twoDigits(Math.floor(second / 60) % 60)}:${twoDigits(second % 60)}`;
  if (digits === 0) return `${date}T${clock}Z`;
  const nanos = String((fields.nanos as number) ?? 0).padStart(9, '0');
  return `${date}T${clock}.${nanos.slice(0, digits)}Z`;
}

/**
 * The messages JSON writes as something else than an object of their fields, by full name.
 * Every other message maps field by field; int64 fields are JSON numbers and bytes fields base64 strings.
 */
export const VALUE_MAPPINGS: Record<string, ValueMapping> = {
  [`${META}.Time`]: {
    toMessage: timeToMessage,
    fromMessage: (fields) => timeFromMessage(fields, 0),
  },
  [`${META}.MicroTime`]: {
    toMessage: timeToMessage,
    fromMessage: (fields) => timeFromMessage(fields, 6),
  },
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': {
    toMessage(value) {
      if (Number.isInteger(value)) return { type: 0, intVal: value };
      if (typeof value === 'string') return { type: 1, strVal: value };
      throw mismatch('an integer or a string', value);
    },
    fromMessage: (fields) => (fields.type === 1 ? (fields.strVal ?? '') : (fields.intVal ?? 0)),
  },
  'k8s.io.apimachinery.pkg.api.resource.Quantity': {
    toMessage(value) {
      if (typeof value === 'string') return { string: value };
      if (typeof value === 'number' && Number.isFinite(value)) return { string: String(value) };
      throw mismatch('a quantity', value);
    },
    fromMessage: (fields) => fields.string ?? '0',
  },
  [`${META}.Verbs`]: {
    toMessage: (value) => ({ items: value }),
    fromMessage: (fields) => fields.items ?? [],
  },
  [`${META}.FieldsV1`]: {
    toMessage(value) {
      if (!isPlainObject(value)) throw mismatch('an object', value);
      return { Raw: Buffer.from(JSON.stringify(value)) };
    },
    fromMessage: (fields) => (fields.Raw === undefined ? undefined : JSON.parse(Buffer.from(fields.Raw as Uint8Array).toString('utf8'))),
  },
  [`${RUNTIME}.RawExtension`]: {
    toMessage(value, embedded) {
      if (!isPlainObject(value)) throw mismatch('an object', value);
      return { raw: embedded.encode(value) };
    },
    fromMessage: (fields, embedded) => (fields.raw === undefined ? undefined : embedded.decode(fields.raw as Uint8Array)),
  },
};

/** bytes fields that hold an encoded object rather than data: they stay bytes instead of becoming base64 text. */
export const EMBEDDED_BYTES_FIELDS = new Set([`${RUNTIME}.Unknown.raw`, `${RUNTIME}.RawExtension.raw`, `${META}.FieldsV1.Raw`]);
