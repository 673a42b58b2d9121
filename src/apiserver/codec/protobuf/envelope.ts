import { Reader, Type, Writer } from 'protobufjs';
import { MappingError } from './mapping-error';
import { JsonObject } from './json-mapping';
import { MessageCodec, MessageCodecs } from './message-codecs';
import { kindMessageType, messageType } from './schema';

/** "k8s" and a zero byte: the start of every protobuf body. */
export const PROTOBUF_PREFIX = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

const UNKNOWN = 'k8s.io.apimachinery.pkg.runtime.Unknown';
const TYPE_META = 'k8s.io.apimachinery.pkg.runtime.TypeMeta';

/** A body that is not a protobuf object this server can read (the caller answers 400). */
export class EnvelopeError extends Error {}

/** A kind with no message definition: it cannot be written in protobuf. */
export class NoMessageError extends Error {}

/** The codecs of every message; objects embedded in messages (watch events) are enveloped themselves. */
export const codecs = new MessageCodecs({ encode: encodeEnveloped, decode: (bytes) => decodeEnveloped(bytes) });

interface EnvelopeParts {
  unknown: MessageCodec;
  typeMeta: MessageCodec;
  /** the tags of Unknown's typeMeta and raw fields, both length-delimited */
  typeMetaTag: number;
  rawTag: number;
}

let parts: EnvelopeParts | undefined;

function envelopeParts(): EnvelopeParts {
  if (!parts) {
    const unknown = messageType(UNKNOWN);
    parts = {
      unknown: codecs.of(unknown),
      typeMeta: codecs.of(messageType(TYPE_META)),
      typeMetaTag: (unknown.fields.typeMeta.id << 3) | 2,
      rawTag: (unknown.fields.raw.id << 3) | 2,
    };
  }
  return parts;
}

/** The message of an object by its apiVersion and kind; NoMessageError when protobuf has none for it. */
function objectMessage(object: JsonObject): { type: Type; typeMeta: { apiVersion?: string; kind: string } } {
  const apiVersion = typeof object.apiVersion === 'string' && object.apiVersion !== '' ? object.apiVersion : undefined;
  const kind = String(object.kind ?? '');
  const type = kindMessageType(apiVersion, kind);
  if (!type) throw new NoMessageError(`no protobuf message for kind "${kind}" in version "${apiVersion ?? ''}"`);
  return { type, typeMeta: { apiVersion, kind } };
}

/** Writes the prefix and the envelope's typeMeta field. */
function envelopeTypeMeta(typeMeta: { apiVersion?: string; kind: string }): Writer {
  const parts = envelopeParts();
  const writer = Writer.create().raw(PROTOBUF_PREFIX);
  writer.uint32(parts.typeMetaTag).fork();
  parts.typeMeta.encode(typeMeta, writer);
  return writer.ldelim();
}

/**
 * An object in protobuf: the prefix, then a runtime.Unknown whose typeMeta holds the object's apiVersion and kind and
 * whose raw holds the object's own message. The message is written straight into the envelope: `raw` is a bytes
 * field, and bytes and an embedded message look the same on the wire.
 */
export function encodeEnveloped(object: JsonObject): Buffer {
  const { type, typeMeta } = objectMessage(object);
  const writer = envelopeTypeMeta(typeMeta).uint32(envelopeParts().rawTag).fork();
  codecs.of(type).encode(object, writer);
  writer.ldelim();
  return writer.finish() as Buffer;
}

/**
 * A list written a part at a time (a streamed list): `start` is the envelope up to the list message, whose length
 * must be known first, and the list's own fields other than its items; `item` writes one element of `items`, a
 * repeated field, which protobuf lets follow as separate fields. `itemLength` counts what `item` will write.
 */
export class ListMessageWriter {
  private readonly list: MessageCodec;
  private readonly itemCodec: MessageCodec;
  private readonly itemsTag: number;
  private readonly typeMeta: { apiVersion?: string; kind: string };

  constructor(private readonly envelope: JsonObject) {
    const { type, typeMeta } = objectMessage(envelope);
    const items = type.fields.items?.resolve();
    if (!(items?.repeated && items.resolvedType instanceof Type)) throw new NoMessageError(`${typeMeta.kind} has no items message`);
    this.list = codecs.of(type);
    this.itemCodec = codecs.of(items.resolvedType);
    this.itemsTag = (items.id << 3) | 2;
    this.typeMeta = typeMeta;
  }

  start(itemsLength: number): Buffer {
    const fields = Writer.create();
    this.list.encode({ ...this.envelope, items: [] }, fields);
    const own = fields.finish();
    return envelopeTypeMeta(this.typeMeta)
      .uint32(envelopeParts().rawTag)
      .uint32(own.length + itemsLength)
      .raw(own)
      .finish() as Buffer;
  }

  item(item: JsonObject, index: number): Buffer {
    const writer = Writer.create().uint32(this.itemsTag).fork();
    try {
      this.itemCodec.encode(item, writer);
    } catch (error) {
      if (error instanceof MappingError) error.within(`[${index}]`).within('items');
      throw error;
    }
    return writer.ldelim().finish() as Buffer;
  }
}

/**
 * Reads a protobuf body into the JSON document the same object has in JSON. kind and apiVersion come from the
 * envelope; where it leaves them empty, the message is chosen by what the endpoint takes (`expected`), and the
 * document, as in JSON, has no kind or apiVersion.
 */
export function decodeEnveloped(bytes: Uint8Array, expected: { kind?: string; apiVersion?: string } = {}): JsonObject {
  const prefixed = bytes.length >= PROTOBUF_PREFIX.length && PROTOBUF_PREFIX.every((byte, i) => bytes[i] === byte);
  if (!prefixed) {
    throw new EnvelopeError(`provided data does not appear to be a protobuf message, expected prefix [${[...PROTOBUF_PREFIX].join(' ')}]`);
  }
  if (bytes.length === PROTOBUF_PREFIX.length) throw new EnvelopeError('empty body');
  const reader = Reader.create(bytes.subarray(PROTOBUF_PREFIX.length));
  const envelope = envelopeParts().unknown.decode(reader, reader.len) as {
    typeMeta?: { apiVersion?: string; kind?: string };
    raw?: Uint8Array;
  };
  const document: JsonObject = {};
  const { apiVersion, kind } = envelope.typeMeta ?? {};
  if (kind) document.kind = kind;
  if (apiVersion) document.apiVersion = apiVersion;
  const messageKind = kind || expected.kind;
  const messageVersion = apiVersion || expected.apiVersion;
  if (!messageKind) throw new EnvelopeError('the object has no kind');
  const type = kindMessageType(messageVersion, messageKind);
  if (!type) throw new EnvelopeError(`no kind "${messageKind}" is registered for version "${messageVersion ?? ''}"`);
  const raw = Reader.create(envelope.raw ?? new Uint8Array(0));
  return Object.assign(document, codecs.of(type).decode(raw, raw.len));
}
