import { Field, MapField, Reader, Type, Writer } from 'protobufjs';
import { isPlainObject } from '../../../apimachinery/meta/kube-object';
import { EMBEDDED_BYTES_FIELDS, EmbeddedObjects, JsonObject, VALUE_MAPPINGS, ValueMapping } from './json-mapping';
import { MappingError, mismatch } from './mapping-error';
import { isInlineField } from './schema';

/** Reads and writes one message straight from and to its JSON form. */
export interface MessageCodec {
  /** writes the fields of a JSON value: the message body, without tag or length */
  encode(value: unknown, writer: Writer): void;
  /** reads a message body that ends at `end` as a JSON value */
  decode(reader: Reader, end: number): unknown;
}

interface Scalar {
  wireType: number;
  /** the Writer method */
  method: 'string' | 'bool' | 'int32' | 'int64' | 'bytes';
  expected: string;
  /** source of a test that the variable `x` fits */
  fits: string;
  /** what a JSON null stands for inside a list or a map, as Go's JSON decoder reads it */
  zero: unknown;
  read(reader: Reader): unknown;
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);

const SCALARS: Record<string, Scalar> = {
  string: { wireType: 2, method: 'string', expected: 'a string', fits: 'typeof x === "string"', zero: '', read: (r) => r.string() },
  bool: { wireType: 0, method: 'bool', expected: 'a boolean', fits: 'typeof x === "boolean"', zero: false, read: (r) => r.bool() },
  int32: { wireType: 0, method: 'int32', expected: 'a 32-bit integer', fits: '(x | 0) === x', zero: 0, read: (r) => r.int32() },
  int64: {
    wireType: 0,
    method: 'int64',
    expected: 'an integer',
    fits: 'Number.isInteger(x)',
    zero: 0,
    read(r) {
      const value = r.int64() as unknown as number | { toNumber(): number };
      return typeof value === 'number' ? value : value.toNumber();
    },
  },
  bytes: {
    wireType: 2,
    method: 'bytes',
    expected: 'base64 text',
    fits: 'typeof x === "string"',
    zero: '',
    read: (r) => asBuffer(r.bytes()).toString('base64'),
  },
};

/** bytes that carry an encoded object: kept as bytes on both sides */
const EMBEDDED_BYTES: Scalar = {
  wireType: 2,
  method: 'bytes',
  expected: 'bytes',
  fits: 'x instanceof Uint8Array',
  zero: new Uint8Array(0),
  read: (r) => r.bytes(),
};

/** Adds a field name (and an item's index or key) to the path of a mapping error passing through. */
function within(error: unknown, name: string, item?: number | string): unknown {
  if (!(error instanceof MappingError)) return error;
  if (typeof item === 'number') error.within(`[${item}]`);
  else if (item !== undefined) error.within(`[${JSON.stringify(item)}]`);
  return error.within(name);
}

/** What the generated encoders call. */
const HELPERS = { isPlainObject, mismatch, within };

type Encoder = (value: unknown, writer: Writer) => void;
type FieldReader = (reader: Reader, wireType: number, target: JsonObject) => void;

/**
 * Collects the source of one message's encoder. The encoder reads each field by its literal name, so every property
 * access in it stays monomorphic: several times faster than a loop over field descriptions.
 */
class EncoderSource {
  private readonly lines = ['if (typeof m !== "object" || m === null || Array.isArray(m)) throw h.mismatch("an object", m);', 'var v, x, i, k;'];
  private readonly values: unknown[] = [];

  /** a name in the source for a value the code uses */
  ref(value: unknown): string {
    this.values.push(value);
    return `r[${this.values.length - 1}]`;
  }

  add(source: string): void {
    this.lines.push(source);
  }

  compile(): Encoder {
    const factory = new Function('h', 'r', `return function encode(m, w) {\n${this.lines.join('\n')}\n};`);
    return factory(HELPERS, this.values) as Encoder;
  }
}

function expectWireType(name: string, actual: number, expected: number): void {
  if (actual !== expected) throw new MappingError(`wire type ${actual}, expected ${expected}`).within(name);
}

/** Sets a key of a decoded map; `__proto__` becomes an ordinary key, as JSON.parse makes it. */
function setKey(map: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
  else map[key] = value;
}

/** A message mapped field by field: every JSON key is the field of the same name. */
class FieldwiseCodec implements MessageCodec {
  /** by field number */
  readonly readers: FieldReader[] = [];

  encode: Encoder = () => {
    throw new Error('encoder used before it was compiled');
  };

  /** `into` receives the fields instead of a new object: how an inlined message joins its parent's JSON. */
  decode(reader: Reader, end: number, into: JsonObject = {}): JsonObject {
    const outer = reader.len;
    if (end > outer) throw new RangeError('index out of range');
    reader.len = end;
    while (reader.pos < end) {
      const tag = reader.uint32();
      const read = this.readers[tag >>> 3];
      if (read === undefined) reader.skipType(tag & 7, 0, tag >>> 3);
      else read(reader, tag & 7, into);
    }
    reader.len = outer;
    return into;
  }
}

/** A message whose JSON form is a single value (a time, a quantity, ...): converted around its fields. */
class MappedCodec implements MessageCodec {
  constructor(
    private readonly fields: FieldwiseCodec,
    private readonly mapping: ValueMapping,
    private readonly embedded: EmbeddedObjects,
  ) {}

  encode(value: unknown, writer: Writer): void {
    this.fields.encode(this.mapping.toMessage(value, this.embedded), writer);
  }

  decode(reader: Reader, end: number): unknown {
    return this.mapping.fromMessage(this.fields.decode(reader, end), this.embedded);
  }
}

/**
 * The codecs of every message, compiled once from the definitions: encoding walks the JSON object once and decoding
 * builds it directly, with no intermediate message objects.
 */
export class MessageCodecs {
  private readonly compiled = new Map<Type, MessageCodec>();

  constructor(private readonly embedded: EmbeddedObjects) {}

  of(type: Type): MessageCodec {
    let codec = this.compiled.get(type);
    if (!codec) {
      const fields = new FieldwiseCodec();
      const mapping = VALUE_MAPPINGS[type.fullName.slice(1)];
      codec = mapping ? new MappedCodec(fields, mapping, this.embedded) : fields;
      this.compiled.set(type, codec); // before its fields: a message may contain itself
      const source = new EncoderSource();
      for (const field of [...type.fieldsArray].sort((a, b) => a.id - b.id)) {
        fields.readers[field.id] = this.compileField(field.resolve(), source);
      }
      fields.encode = source.compile();
    }
    return codec;
  }

  /** Adds the field's part of the encoder to `source` and returns its reader. */
  private compileField(field: Field, source: EncoderSource): FieldReader {
    const fullName = field.fullName.slice(1);
    const name = JSON.stringify(field.name);
    if (field instanceof MapField) return this.mapField(field, source);
    if (field.resolvedType instanceof Type) {
      const codec = this.of(field.resolvedType);
      const c = source.ref(codec);
      const tag = (field.id << 3) | 2;
      if (isInlineField(fullName)) {
        if (!(codec instanceof FieldwiseCodec)) throw new Error(`${fullName}: an inlined message must map field by field`);
        source.add(`w.uint32(${tag}).fork(); ${c}.encode(m, w); w.ldelim();`);
        return inlineReader(field, codec);
      }
      if (field.repeated) {
        source.add(`v = m[${name}];
if (v != null) {
  if (!Array.isArray(v)) throw h.within(h.mismatch("an array", v), ${name});
  for (i = 0; i < v.length; i++) {
    w.uint32(${tag}).fork();
    try { ${c}.encode(v[i] == null ? {} : v[i], w); } catch (error) { throw h.within(error, ${name}, i); }
    w.ldelim();
  }
}`);
        return repeatedMessageReader(field, codec);
      }
      source.add(`v = m[${name}];
if (v != null) {
  w.uint32(${tag}).fork();
  try { ${c}.encode(v, w); } catch (error) { throw h.within(error, ${name}); }
  w.ldelim();
}`);
      return messageReader(field, codec);
    }
    const scalar = EMBEDDED_BYTES_FIELDS.has(fullName) ? EMBEDDED_BYTES : SCALARS[field.type];
    if (!scalar) throw new Error(`${fullName}: no JSON mapping for the type ${field.type}`);
    const tag = (field.id << 3) | scalar.wireType;
    const expected = JSON.stringify(scalar.expected);
    if (field.repeated) {
      source.add(`v = m[${name}];
if (v != null) {
  if (!Array.isArray(v)) throw h.within(h.mismatch("an array", v), ${name});
  for (i = 0; i < v.length; i++) {
    x = v[i] == null ? ${source.ref(scalar.zero)} : v[i];
    if (!(${scalar.fits})) throw h.within(h.mismatch(${expected}, x), ${name}, i);
    w.uint32(${tag}).${scalar.method}(x);
  }
}`);
      return repeatedScalarReader(field, scalar);
    }
    source.add(`x = m[${name}];
if (x != null) {
  if (!(${scalar.fits})) throw h.within(h.mismatch(${expected}, x), ${name});
  w.uint32(${tag}).${scalar.method}(x);
}`);
    return scalarReader(field, scalar);
  }

  private mapField(field: MapField, source: EncoderSource): FieldReader {
    if (field.keyType !== 'string') throw new Error(`${field.fullName}: only string map keys are supported`);
    const name = JSON.stringify(field.name);
    const codec = field.resolvedType instanceof Type ? this.of(field.resolvedType) : undefined;
    const scalar = SCALARS[field.type];
    const writeValue = codec
      ? `w.uint32(18).fork(); ${source.ref(codec)}.encode(x, w); w.ldelim();`
      : `if (!(${scalar.fits})) throw h.mismatch(${JSON.stringify(scalar.expected)}, x);
      w.uint32(${(2 << 3) | scalar.wireType}).${scalar.method}(x);`;
    source.add(`v = m[${name}];
if (v != null) {
  if (!h.isPlainObject(v)) throw h.within(h.mismatch("an object", v), ${name});
  for (k in v) {
    x = v[k];
    w.uint32(${(field.id << 3) | 2}).fork().uint32(10).string(k);
    if (x != null) {
      try {
        ${writeValue}
      } catch (error) { throw h.within(error, ${name}, k); }
    }
    w.ldelim();
  }
}`);
    return mapReader(field, codec, scalar);
  }
}

function scalarReader(field: Field, scalar: Scalar): FieldReader {
  const { name } = field;
  return (reader, wireType, target) => {
    expectWireType(name, wireType, scalar.wireType);
    target[name] = scalar.read(reader);
  };
}

function repeatedScalarReader(field: Field, scalar: Scalar): FieldReader {
  const { name } = field;
  return (reader, wireType, target) => {
    const list = (target[name] ??= []) as unknown[];
    if (wireType === 2 && scalar.wireType === 0) {
      // a packed list, which decoders must accept for numbers and booleans
      const end = reader.uint32() + reader.pos;
      if (end > reader.len) throw new RangeError('index out of range');
      while (reader.pos < end) list.push(scalar.read(reader));
      return;
    }
    expectWireType(name, wireType, scalar.wireType);
    list.push(scalar.read(reader));
  };
}

function messageReader(field: Field, codec: MessageCodec): FieldReader {
  const { name } = field;
  return (reader, wireType, target) => {
    expectWireType(name, wireType, 2);
    let value: unknown;
    try {
      value = codec.decode(reader, reader.uint32() + reader.pos);
    } catch (error) {
      throw within(error, name);
    }
    if (value !== undefined) target[name] = value;
  };
}

function repeatedMessageReader(field: Field, codec: MessageCodec): FieldReader {
  const { name } = field;
  return (reader, wireType, target) => {
    expectWireType(name, wireType, 2);
    const list = (target[name] ??= []) as unknown[];
    try {
      list.push(codec.decode(reader, reader.uint32() + reader.pos) ?? null);
    } catch (error) {
      throw within(error, name, list.length);
    }
  };
}

/** An embedded struct: its fields join the enclosing JSON object. */
function inlineReader(field: Field, codec: FieldwiseCodec): FieldReader {
  return (reader, wireType, target) => {
    expectWireType(field.name, wireType, 2);
    codec.decode(reader, reader.uint32() + reader.pos, target);
  };
}

/** A map entry: key = 1, value = 2; an entry without a value holds the value's zero. */
function mapReader(field: MapField, codec: MessageCodec | undefined, scalar: Scalar | undefined): FieldReader {
  const { name } = field;
  const valueTag = codec ? (2 << 3) | 2 : (2 << 3) | (scalar as Scalar).wireType;
  return (reader, wireType, target) => {
    expectWireType(name, wireType, 2);
    const end = reader.uint32() + reader.pos;
    const outer = reader.len;
    if (end > outer) throw new RangeError('index out of range');
    reader.len = end;
    let key = '';
    let value: unknown;
    while (reader.pos < end) {
      const tag = reader.uint32();
      if (tag === 10) key = reader.string();
      else if (tag !== valueTag) reader.skipType(tag & 7, 0, tag >>> 3);
      else value = codec ? codec.decode(reader, reader.uint32() + reader.pos) : (scalar as Scalar).read(reader);
    }
    value ??= codec ? codec.decode(reader, reader.pos) : (scalar as Scalar).zero;
    reader.len = outer;
    setKey((target[name] ??= {}) as JsonObject, key, value);
  };
}
