import { request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ClientTls } from './http';
import { decodeWatchEvent, PROTOBUF } from './protobuf';

export interface Event {
  type: string;
  object: any;
}

/** A watch stream read over real HTTP (JSON lines, or protobuf frames), collecting its events. */
export class WatchClient {
  readonly events: Event[] = [];
  /** the WatchEvent message of each protobuf frame, as received */
  readonly frames: Buffer[] = [];
  status = 0;
  headers: Record<string, string | string[] | undefined> = {};
  ended = false;
  private readonly waiters: (() => void)[] = [];
  private abort?: () => void;

  /** Opens a watch; an https base needs `tls`. */
  static open(base: string, path: string, headers: Record<string, string> = {}, tls?: ClientTls): Promise<WatchClient> {
    const client = new WatchClient();
    return new Promise((resolve, reject) => {
      const send = tls ? (url: string, options: object, callback: Parameters<typeof httpsRequest>[2]) => httpsRequest(url, { ...options, ...tls }, callback) : request;
      const req = send(`${base}${path}`, { headers }, (res) => {
        client.status = res.statusCode ?? 0;
        client.headers = res.headers;
        const framed = String(res.headers['content-type']).startsWith(PROTOBUF);
        let pending: Buffer = Buffer.alloc(0);
        res.on('data', (chunk: Buffer) => {
          pending = Buffer.concat([pending, chunk]);
          pending = framed ? client.readFrames(pending) : client.readLines(pending);
          client.notify();
        });
        // 'close' also comes when the connection breaks without an end (the server killed)
        for (const event of ['end', 'close']) {
          res.on(event, () => {
            client.ended = true;
            client.notify();
          });
        }
        res.on('error', () => undefined);
        resolve(client);
      });
      req.on('error', (error) => (client.status ? undefined : reject(error)));
      req.end();
      client.abort = () => req.destroy();
    });
  }

  /** Waits until `condition` holds over the events received so far (or fails after `timeoutMs`). */
  async until(condition: (events: Event[]) => boolean, timeoutMs = 10_000): Promise<Event[]> {
    const deadline = Date.now() + timeoutMs;
    while (!condition(this.events)) {
      if (this.ended) throw new Error(`stream ended; got ${JSON.stringify(this.summary())}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; got ${JSON.stringify(this.summary())}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.events;
  }

  /** Waits for at least `count` events. */
  count(count: number, timeoutMs?: number): Promise<Event[]> {
    return this.until((events) => events.length >= count, timeoutMs);
  }

  /** Waits for the server to end the stream. */
  async end(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      if (Date.now() > deadline) throw new Error('stream did not end');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** `TYPE name` for each event, e.g. `ADDED web`. */
  summary(): string[] {
    return this.events.map((e) => `${e.type} ${e.object?.metadata?.name ?? e.object?.reason ?? ''}`.trim());
  }

  close(): void {
    this.abort?.();
  }

  /** Takes the complete lines; returns what is left. */
  private readLines(pending: Buffer): Buffer {
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.subarray(0, newline).toString('utf8');
      pending = pending.subarray(newline + 1);
      if (line.trim()) this.events.push(JSON.parse(line));
    }
    return pending;
  }

  /** Takes the complete frames (a 4-byte big-endian length, then the WatchEvent); returns what is left. */
  private readFrames(pending: Buffer): Buffer {
    while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) {
      const frame = pending.subarray(4, 4 + pending.readUInt32BE(0));
      pending = pending.subarray(4 + frame.length);
      this.frames.push(frame);
      this.events.push(decodeWatchEvent(frame));
    }
    return pending;
  }

  private notify(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}
