import { LeafType, ListSchema, MapSchema, Schema, StructSchema } from './schema';

/** What decoding (conform.ts) leaves in a value of each leaf type. */
interface LeafValues {
  string: string;
  boolean: boolean;
  int32: number;
  int64: number;
  /** base64 text */
  bytes: string;
  intOrString: number | string;
  /** in canonical form (`100m`, `1Gi`), whether sent as text or as a number */
  quantity: string;
  /** RFC 3339 text; null is the zero time, which Go writes as null and the server too (a pod template's creationTimestamp) */
  time: string | null;
  microTime: string | null;
  /** a set of fields of server-side apply, always an object */
  fieldsV1: Record<string, unknown>;
  /** kept as sent */
  any: unknown;
}

/**
 * The TypeScript type of a decoded value of the shape `S`: `TypeOf<typeof DEPLOYMENT>` is a Deployment's JSON. A
 * struct's fields are all optional, as decoding leaves out what was absent or null (`required` is a fact for OpenAPI
 * and validation, not a promise of presence); an inline field's own fields are in its place, as in JSON.
 */
export type TypeOf<S extends Schema> =
  S extends StructSchema<infer JsonSpecs>
    ? string extends keyof JsonSpecs
      ? Record<string, unknown> // a struct whose type does not name its fields
      : { -readonly [Name in keyof JsonSpecs]?: TypeOf<JsonSpecs[Name][1]> }
    : S extends ListSchema<infer Items>
      ? TypeOf<Items>[]
      : S extends MapSchema<infer Values>
        ? Record<string, TypeOf<Values>>
        : LeafValues[S['type'] & LeafType];
