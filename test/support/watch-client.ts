import { ClientTls } from './http';
import { decodeWatchEvent } from './protobuf';
import { WatchStream } from './watch-stream';

export interface Event {
  type: string;
  object: any;
}

/** A watch stream read over real HTTP (JSON lines, or protobuf frames), collecting its events. */
export class WatchClient {
  readonly events: Event[] = [];
  /** the WatchEvent message of each protobuf frame, as received */
  readonly frames: Buffer[] = [];
  private readonly waiters: (() => void)[] = [];
  private stream?: WatchStream;

  get status(): number {
    return this.stream?.status ?? 0;
  }

  get headers(): WatchStream['headers'] {
    return this.stream?.headers ?? {};
  }

  get ended(): boolean {
    return this.stream?.ended ?? false;
  }

  /** Opens a watch; an https base needs `tls`. */
  static async open(base: string, path: string, headers: Record<string, string> = {}, tls?: ClientTls): Promise<WatchClient> {
    const client = new WatchClient();
    const take = (record: string | Buffer) => client.take(record);
    client.stream = await WatchStream.open(`${base}${path}`, { headers, ...tls }, take, () => client.notify());
    return client;
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
    this.stream?.close();
  }

  private take(record: string | Buffer): void {
    if (typeof record === 'string') {
      if (record.trim()) this.events.push(JSON.parse(record));
    } else {
      this.frames.push(record);
      this.events.push(decodeWatchEvent(record));
    }
    this.notify();
  }

  private notify(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}
