import { Readable } from 'node:stream';
import { dump as dumpYaml } from 'js-yaml';
import { JSON_TYPE, PROTOBUF_TYPE, ResponseType, YAML_TYPE } from './media-types';
import { ListMessageWriter } from './protobuf/envelope';
import { JsonObject } from './protobuf/json-mapping';
import { protobufFailure, YAML_OPTIONS } from './response-encoder';

/** A list whose items are read while its response is written. */
export interface ListSource {
  /** the list with no items, its members in the order the kind writes them (the items go where `itemsMember` is) */
  readonly envelope: JsonObject;
  /** the member of the envelope the items go in: `items`, or a Table's `rows` */
  readonly itemsMember: string;
  /** the items as compact JSON text, a batch at a time; each call reads them again from the first */
  batches(): AsyncIterable<string[]>;
  /** lets go of what the reading holds; `failure` when it did not end well. Only the first call counts. */
  close(failure?: unknown): Promise<void>;
}

/** How one media type writes a list in parts: the same bytes, joined, as the list encoded whole. */
interface ListFormat {
  /** the list without items, whole */
  empty: Buffer;
  /** up to the first item */
  head: Buffer;
  /** an item, with what separates it from the one before */
  item(text: string, index: number): Buffer;
  /** after the last item */
  tail: Buffer;
}

const PLACEHOLDER = 'pgkube-list-item-placeholder';

/** The text of the list around its items, from the text of the list with one placeholder item. */
function around(text: string, placeholder: string): [string, string] {
  const at = text.indexOf(placeholder);
  return [text.slice(0, at), text.slice(at + placeholder.length)];
}

const withItems = ({ envelope, itemsMember }: ListSource, items: unknown[]) => ({ ...envelope, [itemsMember]: items });

function compactJson(list: ListSource): ListFormat {
  const [head, tail] = around(JSON.stringify(withItems(list, [PLACEHOLDER])), JSON.stringify(PLACEHOLDER));
  return {
    empty: Buffer.from(`${JSON.stringify(withItems(list, []))}\n`),
    head: Buffer.from(head),
    item: (text, index) => Buffer.from(index === 0 ? text : `,${text}`),
    tail: Buffer.from(`${tail}\n`),
  };
}

/** Indented JSON: each item indented as deep as the list's items are. */
function prettyJson(list: ListSource): ListFormat {
  const [head, tail] = around(JSON.stringify(withItems(list, [PLACEHOLDER]), null, 2), JSON.stringify(PLACEHOLDER));
  const newline = head.slice(head.lastIndexOf('\n'));
  return {
    empty: Buffer.from(JSON.stringify(withItems(list, []), null, 2)),
    head: Buffer.from(head),
    item: (text, index) => Buffer.from(`${index === 0 ? '' : `,${newline}`}${JSON.stringify(JSON.parse(text), null, 2).replaceAll('\n', newline)}`),
    tail: Buffer.from(tail),
  };
}

/** YAML with sorted keys: each item a sequence entry indented as deep as the list's. */
function yaml(list: ListSource): ListFormat {
  const text = dumpYaml(withItems(list, [PLACEHOLDER]), YAML_OPTIONS);
  const [before, tail] = around(text, `- ${PLACEHOLDER}\n`);
  const lineStart = before.lastIndexOf('\n') + 1;
  const indent = before.slice(lineStart);
  return {
    empty: Buffer.from(dumpYaml(withItems(list, []), YAML_OPTIONS)),
    head: Buffer.from(before.slice(0, lineStart)),
    // blank lines (inside a block scalar) stay empty, as when the list is written whole
    item: (item) => Buffer.from(dumpYaml([JSON.parse(item)], YAML_OPTIONS).replace(/^(?=.)/gm, indent)),
    tail: Buffer.from(tail),
  };
}

/**
 * Protobuf: the envelope holds the list message as a length-delimited field, so the length of every item is counted
 * in a first pass over the items (in the same snapshot), before anything is written; items are encoded again in
 * the second. A kind without a message, or an item that does not fit it, fails here, before the response starts.
 */
async function protobuf(source: ListSource): Promise<ListFormat> {
  let writer: ListMessageWriter;
  let itemsLength = 0;
  try {
    writer = new ListMessageWriter(source.envelope);
    let index = 0;
    for await (const batch of source.batches()) {
      for (const text of batch) itemsLength += writer.item(JSON.parse(text) as JsonObject, index++).length;
    }
  } catch (error) {
    throw protobufFailure(error);
  }
  const head = writer.start(itemsLength);
  return { empty: head, head, item: (text, index) => writer.item(JSON.parse(text) as JsonObject, index), tail: Buffer.alloc(0) };
}

async function listFormat(source: ListSource, type: ResponseType, pretty: boolean): Promise<ListFormat> {
  if (type === PROTOBUF_TYPE) return protobuf(source);
  if (type === YAML_TYPE) return yaml(source);
  return pretty ? prettyJson(source) : compactJson(source);
}

async function* chunks(source: ListSource, format: ListFormat): AsyncGenerator<Buffer> {
  let index = 0;
  for await (const batch of source.batches()) {
    const parts = index === 0 ? [format.head] : [];
    for (const text of batch) parts.push(format.item(text, index++));
    yield Buffer.concat(parts);
  }
  yield index === 0 ? format.empty : format.tail;
}

/** The bytes of a streamed list, as the encoder of a whole value writes them (see encodeBody). */
export interface ListStream {
  contentType: ResponseType;
  body: Readable;
}

/**
 * A list as a stream of bytes, read a batch of items at a time as the consumer takes them (backpressure): the
 * server holds about one batch per list. The source is closed when the stream ends, fails or is destroyed (a client
 * that goes away); a failure before the stream exists (e.g. a kind protobuf cannot write) closes it too.
 */
export async function listStream(source: ListSource, type: ResponseType, pretty: boolean): Promise<ListStream> {
  let format: ListFormat;
  try {
    format = await listFormat(source, type, type === JSON_TYPE && pretty);
  } catch (error) {
    await source.close(error);
    throw error;
  }
  async function* closing(): AsyncGenerator<Buffer> {
    let failure: unknown;
    try {
      yield* chunks(source, format);
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      await source.close(failure);
    }
  }
  const body = Readable.from(closing(), { objectMode: false });
  // a stream destroyed before its first read never starts the generator, whose `finally` then never runs
  body.once('close', () => void source.close());
  return { contentType: type, body };
}
