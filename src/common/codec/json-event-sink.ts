import { ServerResponse } from 'node:http';
import { EventSink, WatchEvent } from './watch-events';

/** A client more than this many bytes behind is dropped; it watches again from the last version it saw. */
export const MAX_UNSENT_BYTES = 4 * 1024 * 1024;

/** Events encoded once and shared by every watcher that sends the same event object. */
const encoded = new WeakMap<WatchEvent, Buffer>();

/** Writes newline-delimited JSON events, one `{"type","object"}` per line, flushed as written. */
export class JsonEventSink implements EventSink {
  constructor(private readonly response: ServerResponse) {}

  send(event: WatchEvent): boolean {
    let bytes = encoded.get(event);
    if (!bytes) {
      bytes = Buffer.from(`${JSON.stringify(event)}\n`);
      encoded.set(event, bytes);
    }
    this.response.write(bytes);
    return this.response.writableLength <= MAX_UNSENT_BYTES;
  }

  end(): void {
    this.response.end();
  }
}
