import { ServerResponse } from 'node:http';
import { StatusError } from '../../apimachinery/errors/status-error';
import { JSON_TYPE, PROTOBUF_TYPE, ResponseType } from './media-types';
import { JsonObject } from './protobuf/json-mapping';
import { encodeWatchFrame } from './protobuf/watch-frame';
import { EncodedJson, protobufFailure } from './response-encoder';
import { EventSink, WatchEvent } from '../../watch/watch-events';

/** A client more than this many bytes behind is dropped; it watches again from the last version it saw. */
export const MAX_UNSENT_BYTES = 4 * 1024 * 1024;

/** How a watch stream is labelled and how it writes one event. */
export interface WatchFormat {
  contentType: string;
  encode(event: WatchEvent): Buffer;
}

/** An event's object as an object: one already written as JSON text (EncodedJson) is parsed. */
export const eventObject = (event: WatchEvent): unknown => (event.object instanceof EncodedJson ? JSON.parse(event.object.text) : event.object);

/** A protobuf frame; an object protobuf cannot carry becomes an ERROR event with the Status saying why. */
function protobufFrame(event: WatchEvent): Buffer {
  try {
    return encodeWatchFrame(event.type, eventObject(event) as JsonObject);
  } catch (error) {
    const failure = protobufFailure(error);
    if (failure instanceof StatusError) return encodeWatchFrame('ERROR', failure.toStatus() as unknown as JsonObject);
    throw failure;
  }
}

/** A JSON event line; an object already written as JSON (EncodedJson) is copied in as it is. */
function jsonLine(event: WatchEvent): Buffer {
  if (!(event.object instanceof EncodedJson)) return Buffer.from(`${JSON.stringify(event)}\n`);
  return Buffer.from(`{"type":${JSON.stringify(event.type)},"object":${event.object.text}}\n`);
}

/**
 * The watch formats: JSON is one `{"type","object"}` per line, labelled plain
 * `application/json` as the apiserver labels it; protobuf is length-prefixed frames, labelled as a stream.
 */
export const WATCH_FORMATS: Partial<Record<ResponseType, WatchFormat>> = {
  [JSON_TYPE]: { contentType: JSON_TYPE, encode: jsonLine },
  [PROTOBUF_TYPE]: { contentType: `${PROTOBUF_TYPE};stream=watch`, encode: protobufFrame },
};

/** Events encoded once per format and shared by every watcher that sends the same event object. */
const encoded = new Map<WatchFormat, WeakMap<WatchEvent, Buffer>>();

/** Writes encoded events to one response, flushed as written. */
export class StreamEventSink implements EventSink {
  private readonly cache: WeakMap<WatchEvent, Buffer>;

  constructor(
    private readonly response: ServerResponse,
    private readonly format: WatchFormat,
  ) {
    if (!encoded.has(format)) encoded.set(format, new WeakMap());
    this.cache = encoded.get(format) as WeakMap<WatchEvent, Buffer>;
  }

  send(event: WatchEvent): boolean {
    let bytes = this.cache.get(event);
    if (!bytes) {
      bytes = this.format.encode(event);
      this.cache.set(event, bytes);
    }
    this.response.write(bytes);
    return this.response.writableLength <= MAX_UNSENT_BYTES;
  }

  drained(): Promise<void> {
    const response = this.response;
    if (!response.writableNeedDrain || response.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        response.removeListener('drain', done);
        response.removeListener('close', done);
        resolve();
      };
      response.once('drain', done);
      response.once('close', done);
    });
  }

  end(): void {
    this.response.end();
  }
}
