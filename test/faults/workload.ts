import { WatchClient } from '../support/watch-client';

/**
 * Clients through every pgkube instance while a fault happens: writers creating ConfigMaps (each name once), a watcher
 * per instance (resuming from its last resourceVersion when its stream ends, relisting when told 410), and a /readyz
 * prober per instance. Everything is recorded with its times, for the fault suite's checks.
 */
export const COLLECTION = '/api/v1/namespaces/default/configmaps';
const WRITERS_PER_INSTANCE = 3;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Answer {
  name: string;
  instance: number;
  /** 0: no HTTP answer (connection refused or cut) */
  status: number;
  sentAt: number;
  at: number;
  resourceVersion?: string;
  text?: string;
}

export interface Probe {
  instance: number;
  sentAt: number;
  at: number;
  status: number;
}

/** One watcher: how many times it was shown each name since its last list, and which change each resourceVersion carried. */
export class Watcher {
  /** per name: 1 if in the last relist, plus each ADDED after it */
  counts = new Map<string, number>();
  /** resourceVersion → name, from every event and list item seen */
  readonly changes = new Map<string, string>();
  readonly reused: string[] = [];
  relists = 0;
  reopened = 0;
  private stopped = false;
  private stream?: WatchClient;
  readonly done: Promise<void>;

  constructor(
    private readonly url: string,
    private readonly selector: string,
  ) {
    this.done = this.run();
  }

  private note(resourceVersion: string, name: string): void {
    const known = this.changes.get(resourceVersion);
    if (known !== undefined && known !== name) this.reused.push(`${resourceVersion}: ${known} and ${name}`);
    this.changes.set(resourceVersion, name);
  }

  private async list(): Promise<string | undefined> {
    type List = { metadata: { resourceVersion: string }; items: { metadata: { name: string; resourceVersion: string } }[] };
    const list = await fetch(`${this.url}${COLLECTION}?labelSelector=${this.selector}`, { signal: AbortSignal.timeout(15_000) })
      .then((response) => (response.status === 200 ? (response.json() as Promise<List>) : undefined))
      .catch(() => undefined);
    if (!list) return undefined;
    this.counts = new Map(list.items.map((item) => [item.metadata.name, 1]));
    for (const item of list.items) this.note(item.metadata.resourceVersion, item.metadata.name);
    return list.metadata.resourceVersion;
  }

  private async run(): Promise<void> {
    let from: string | undefined;
    while (!this.stopped) {
      from ??= await this.list();
      if (from === undefined) {
        await pause(200);
        continue;
      }
      const watch = await WatchClient.open(this.url, `${COLLECTION}?watch=true&labelSelector=${this.selector}&resourceVersion=${from}`).catch(() => undefined);
      this.stream = watch;
      let taken = 0;
      while (watch && watch.status === 200 && !this.stopped) {
        for (const event of watch.events.slice(taken)) {
          if (event.type === 'ERROR') {
            if (event.object.code !== 410) throw new Error(`watch error: ${JSON.stringify(event.object)}`);
            this.relists++;
            from = undefined;
            break;
          }
          this.note(event.object.metadata.resourceVersion, event.object.metadata.name);
          if (event.type === 'ADDED') this.counts.set(event.object.metadata.name, (this.counts.get(event.object.metadata.name) ?? 0) + 1);
          from = event.object.metadata.resourceVersion;
        }
        taken = watch.events.length;
        if (watch.ended || from === undefined) break;
        await pause(20);
      }
      watch?.close();
      if (watch?.status === 410) {
        this.relists++;
        from = undefined;
      }
      if (!this.stopped) {
        this.reopened++;
        await pause(200);
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stream?.close();
    await this.done;
  }
}

export class Workload {
  readonly answers: Answer[] = [];
  readonly probes: Probe[] = [];
  readonly watchers: Watcher[];
  private running = true;
  private readonly loops: Promise<void>[] = [];
  private next = 0;

  constructor(
    urls: string[],
    private readonly id: string,
  ) {
    const selector = `fault%3D${id}`;
    this.watchers = urls.map((url) => new Watcher(url, selector));
    urls.forEach((url, instance) => {
      for (let w = 0; w < WRITERS_PER_INSTANCE; w++) this.loops.push(this.write(url, instance));
      this.loops.push(this.probe(url, instance));
    });
  }

  private async write(url: string, instance: number): Promise<void> {
    while (this.running) {
      const name = `${this.id}-${this.next++}`;
      const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { fault: this.id } }, data: { instance: String(instance) } };
      const sentAt = Date.now();
      // an answer is its status and its whole body; a connection lost before both arrived is no answer (status 0)
      const { status, text } = await fetch(`${url}${COLLECTION}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      })
        .then(async (response) => ({ status: response.status, text: await response.text() }))
        .catch(() => ({ status: 0, text: '' }));
      const answer: Answer = { name, instance, status, sentAt, at: Date.now() };
      if (status === 201) answer.resourceVersion = JSON.parse(text).metadata.resourceVersion;
      else answer.text = text;
      this.answers.push(answer);
      if (answer.status !== 201) await pause(100);
    }
  }

  private async probe(url: string, instance: number): Promise<void> {
    while (this.running) {
      const sentAt = Date.now();
      // the body is read too: a timeout that fires while it is unread would be an error nobody catches
      const status = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5000) })
        .then(async (response) => (await response.text(), response.status))
        .catch(() => 0);
      this.probes.push({ instance, sentAt, at: Date.now(), status });
      await pause(100);
    }
  }

  /**
   * Stops writing, then waits (up to a bound) until every watcher was shown every name `expected` gives (by default
   * those of the acknowledged writes), then stops them.
   */
  async stop(expected = async () => this.acknowledged().map((a) => a.name)): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    const names = await expected();
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !this.watchers.every((w) => names.every((name) => w.counts.has(name)))) await pause(200);
    await Promise.all(this.watchers.map((w) => w.stop()));
  }

  acknowledged(): Answer[] {
    return this.answers.filter((a) => a.status === 201);
  }

  /**
   * The longest time after `from` with no write acknowledged: from one acknowledgement to the next (the API was
   * unwritable in between), in seconds.
   */
  unwritableSeconds(from: number): { seconds: number; start: number; end: number } {
    const times = this.acknowledged()
      .map((a) => a.at)
      .sort((x, y) => x - y);
    let worst = { seconds: 0, start: from, end: from };
    for (let i = 1; i < times.length; i++) {
      if (times[i] < from) continue;
      const seconds = (times[i] - times[i - 1]) / 1000;
      if (seconds > worst.seconds) worst = { seconds, start: times[i - 1], end: times[i] };
    }
    return worst;
  }
}
