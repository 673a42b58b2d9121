import { ServerResponse } from 'node:http';
import { StatusError } from '../../apimachinery/errors/status-error';
import { JSON_TYPE, PROTOBUF_TYPE, ResponseType } from './media-types';
import { JsonObject } from './protobuf/json-mapping';
import { encodeWatchFrame } from './protobuf/watch-frame';
import { EncodedJson, protobufFailure } from './response-encoder';
import { EventSink, WatchEvent } from '../../watch/watch-events';

/** A client more than this many bytes behind is dropped; it watches again from the last version it saw. */
export const MAX_UNSENT_BYTES = 4 * 1024 * 1024;

/** How a watch stream is labelled and how it writes events (several in one piece). */
export interface WatchFormat {
  contentType: string;
  encode(events: readonly WatchEvent[]): Buffer;
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
function jsonLine(event: WatchEvent): string {
  if (!(event.object instanceof EncodedJson)) return `${JSON.stringify(event)}\n`;
  return `{"type":${JSON.stringify(event.type)},"object":${event.object.text}}\n`;
}

/** JSON event lines, made into bytes once for all of them. */
const jsonLines = (events: readonly WatchEvent[]) => Buffer.from(events.map(jsonLine).join(''));

/**
 * The watch formats: JSON is one `{"type","object"}` per line, labelled plain
 * `application/json` as the apiserver labels it; protobuf is length-prefixed frames, labelled as a stream.
 */
export const WATCH_FORMATS: Partial<Record<ResponseType, WatchFormat>> = {
  [JSON_TYPE]: { contentType: JSON_TYPE, encode: jsonLines },
  [PROTOBUF_TYPE]: { contentType: `${PROTOBUF_TYPE};stream=watch`, encode: (events) => Buffer.concat(events.map(protobufFrame)) },
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

  /**
   * Writes events: one event as encoded for every watcher that sends it (a change), several (a batch of initial
   * events, this watcher's own) encoded and written together: a chunk of the response and a TLS record for all.
   */
  send(events: readonly WatchEvent[]): boolean {
    this.response.write(events.length === 1 ? this.encodedOnce(events[0]) : this.format.encode(events));
    return this.response.writableLength <= MAX_UNSENT_BYTES;
  }

  private encodedOnce(event: WatchEvent): Buffer {
    let bytes = this.cache.get(event);
    if (!bytes) {
      bytes = this.format.encode([event]);
      this.cache.set(event, bytes);
    }
    return bytes;
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
