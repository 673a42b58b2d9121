/**
 * The shape of a kind's fields as the apiserver's Go types give it: what a body must look like to be decodable
 * (400 otherwise) and which fields exist (others are dropped, as Go's decoder drops them).
 */
export type LeafType = 'string' | 'boolean' | 'int32' | 'int64' | 'intOrString' | 'quantity' | 'time' | 'any';

export type Schema =
  | { type: LeafType }
  /** a Go struct: only the listed fields are kept */
  | { type: 'struct'; name: string; fields: Readonly<Record<string, Schema>> }
  | { type: 'list'; items: Schema }
  | { type: 'map'; values: Schema };

export type StructSchema = Extract<Schema, { type: 'struct' }>;

const leaf = (type: LeafType): Schema => ({ type });
const list = (items: Schema): Schema => ({ type: 'list', items });
const map = (values: Schema): Schema => ({ type: 'map', values });

/** Builders of schemas, named after the Go types. */
export const s = {
  string: leaf('string'),
  boolean: leaf('boolean'),
  int32: leaf('int32'),
  int64: leaf('int64'),
  intOrString: leaf('intOrString'),
  quantity: leaf('quantity'),
  time: leaf('time'),
  /** a field kept as sent, whatever its shape */
  any: leaf('any'),
  struct: (name: string, fields: Record<string, Schema>): StructSchema => ({ type: 'struct', name, fields }),
  list,
  map,
  stringList: list(leaf('string')),
  stringMap: map(leaf('string')),
};
