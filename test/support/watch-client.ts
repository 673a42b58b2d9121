import { request } from 'node:http';

export interface Event {
  type: string;
  object: any;
}

/** A watch stream read line by line over real HTTP, collecting its events. */
export class WatchClient {
  readonly events: Event[] = [];
  status = 0;
  headers: Record<string, string | string[] | undefined> = {};
  ended = false;
  private readonly waiters: (() => void)[] = [];
  private abort?: () => void;

  static open(base: string, path: string, headers: Record<string, string> = {}): Promise<WatchClient> {
    const client = new WatchClient();
    return new Promise((resolve, reject) => {
      const req = request(`${base}${path}`, { headers }, (res) => {
        client.status = res.statusCode ?? 0;
        client.headers = res.headers;
        let pending = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          pending += chunk;
          let newline: number;
          while ((newline = pending.indexOf('\n')) >= 0) {
            const line = pending.slice(0, newline);
            pending = pending.slice(newline + 1);
            if (line.trim()) client.events.push(JSON.parse(line));
          }
          client.notify();
        });
        res.on('end', () => {
          client.ended = true;
          client.notify();
        });
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

  private notify(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}
