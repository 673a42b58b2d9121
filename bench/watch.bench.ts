/**
 * `npm run bench:watch`: commit→client latency on the same and on the other instance, events/s to one watcher,
 * 1,000 watchers at 200 events/s, memory per idle watcher, and creates/s with and without 1,000 watchers.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { deployment } from './support/deployment';
import { percentile, runLoad } from './support/load';
import { describeMachine, table, writeSection } from './support/results';
import { runBenchmark } from './support/run';
import { Cluster } from './support/server';
import { ServerProcess } from '../test/support/server-process';
import { copyOf, insertObjects, StoredBody, storedTemplate } from './support/stored-objects';
import { EventListener, openScannedWatch } from './support/scanned-watch';
import { WatchStream } from '../test/support/watch-stream';

const LATENCY_SAMPLES = 300;
const BURST = 20_000;
const WATCHERS = 1000;
const FAN_SECONDS = 10;
const FAN_RATE = 200;
const TICK_MS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

const watchUrl = (server: ServerProcess, namespace?: string, query = '') =>
  `${server.url}/apis/extensions/v1beta1/${namespace ? `namespaces/${namespace}/` : ''}deployments?watch=true&timeoutSeconds=900${query}`;

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

/** Resolves when `condition` holds, checked after each event (or false after `timeoutMs`). */
class Progress {
  private waiters: (() => void)[] = [];

  notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((w) => w());
  }

  async until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (!condition()) {
      const left = deadline - performance.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return true;
  }
}

/** Commit→client latency: one SQL insert at a time, timed from its start to the event on each watcher. */
async function latency(cluster: Cluster, sql: Client, template: StoredBody) {
  const progress = new Progress();
  const arrivals = cluster.servers.map(() => new Map<number, number>());
  const streams = await Promise.all(
    cluster.servers.map((server, i) =>
      openScannedWatch(watchUrl(server, 'latency'), (_type, rv, at) => {
        arrivals[i].set(rv, at);
        progress.notify();
      }),
    ),
  );
  const latencies = cluster.servers.map(() => [] as number[]);
  const writes: number[] = [];
  let lost = 0;
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const start = performance.now();
    const [rv] = await insertObjects(sql, [copyOf(template, 'latency', `l-${i}`)]);
    writes.push(performance.now() - start);
    const version = Number(rv);
    if (!(await progress.until(() => arrivals.every((a) => a.has(version)), 5000))) lost++;
    arrivals.forEach((a, s) => a.has(version) && latencies[s].push((a.get(version) as number) - start));
    await sleep(5);
  }
  streams.forEach((s) => s.close());
  return { latencies: latencies.map(sorted), writes: sorted(writes), lost };
}

/** Events/s to one watcher while a burst of changes is written as fast as SQL takes them. */
async function burst(server: ServerProcess, sql: Client, template: StoredBody) {
  const progress = new Progress();
  let count = 0;
  let first = 0;
  let last = 0;
  const stream = await openScannedWatch(watchUrl(server, 'burst'), (_type, _rv, at) => {
    if (count++ === 0) first = at;
    last = at;
    progress.notify();
  });
  const start = performance.now();
  for (let from = 0; from < BURST; from += 500) {
    await insertObjects(sql, Array.from({ length: 500 }, (_, i) => copyOf(template, 'burst', `b-${from + i}`)));
  }
  const written = performance.now();
  await progress.until(() => count >= BURST, 60_000);
  stream.close();
  return { received: count, eventsPerSecond: (count * 1000) / (last - first), writesPerSecond: (BURST * 1000) / (written - start), drainMs: last - written };
}

/** Creates/s through the API at 16 clients. */
async function creates(server: ServerProcess, namespace: string) {
  return runLoad({
    url: server.url,
    connections: 16,
    seconds: SECONDS,
    request: (n) => ({
      method: 'POST',
      path: `/apis/extensions/v1beta1/namespaces/${namespace}/deployments`,
      body: JSON.stringify(deployment(`d-${n}`)),
    }),
  });
}

async function openMany(count: number, url: string, onEvent: (index: number) => EventListener): Promise<WatchStream[]> {
  const streams: WatchStream[] = [];
  for (let from = 0; from < count; from += 100) {
    const batch = Array.from({ length: Math.min(100, count - from) }, (_, i) => openScannedWatch(url, onEvent(from + i)));
    streams.push(...(await Promise.all(batch)));
  }
  return streams;
}

/** Watches of all namespaces with a label selector no object has: every change is tested against each. */
const IDLE_URL = (server: ServerProcess) => watchUrl(server, undefined, '&labelSelector=bench-idle%3Dyes');

/** The RSS of an idle server once it has stopped shrinking (its collector returns start-up garbage for a while). */
async function steadyRss(server: ServerProcess): Promise<number> {
  let last = server.rss();
  for (let i = 0; i < 30; i++) {
    await sleep(1000);
    const now = server.rss();
    if (i >= 2 && Math.abs(now - last) < 256 * 1024) return now;
    last = now;
  }
  return last;
}

/**
 * Server RSS before and after opening 1,000 idle watches, on a fresh server of its own (a server that has just
 * served load holds garbage its next collections return, which would hide the watches).
 */
async function idleMemory(cluster: Cluster) {
  const server = await cluster.add();
  // A first round of the same watches, closed again: what opening them costs once (compiled code, collections that
  // shrink the heap) is then in the baseline, and only what open watches hold is in the difference.
  (await openMany(WATCHERS, IDLE_URL(server), () => () => undefined)).forEach((s) => s.close());
  const rssBefore = await steadyRss(server);
  const idle = await openMany(WATCHERS, IDLE_URL(server), () => () => undefined);
  const rssAfter = await steadyRss(server);
  idle.forEach((s) => s.close());
  await cluster.remove(server);
  return { rssBefore, rssAfter };
}

/** 1,000 watchers of one namespace while 200 changes a second are written to it for 10 s. */
async function fanOut(server: ServerProcess, sql: Client, template: StoredBody) {
  const capacity = WATCHERS * FAN_RATE * FAN_SECONDS * 1.2;
  const deliveredVersion = new Float64Array(capacity);
  const deliveredAt = new Float64Array(capacity);
  let deliveries = 0;
  const lastSeen = new Float64Array(WATCHERS);
  const counts = new Uint32Array(WATCHERS);
  let disordered = 0;
  const progress = new Progress();
  const streams = await openMany(WATCHERS, watchUrl(server, 'fan'), (w) => (_type, rv, at) => {
    if (rv <= lastSeen[w]) disordered++;
    else counts[w]++;
    lastSeen[w] = rv;
    if (deliveries < capacity) {
      deliveredVersion[deliveries] = rv;
      deliveredAt[deliveries++] = at;
    }
    if (counts[w] === written.length) progress.notify();
  });
  const writtenAt = new Map<number, number>();
  const written: number[] = [];
  const perTick = (FAN_RATE * TICK_MS) / 1000;
  const start = performance.now();
  for (let tick = 0; tick < (FAN_SECONDS * 1000) / TICK_MS; tick++) {
    const wait = start + tick * TICK_MS - performance.now();
    if (wait > 0) await sleep(wait);
    const at = performance.now();
    const bodies = Array.from({ length: perTick }, (_, i) => copyOf(template, 'fan', `f-${tick}-${i}`));
    for (const rv of await insertObjects(sql, bodies)) {
      writtenAt.set(Number(rv), at);
      written.push(Number(rv));
    }
  }
  const writeSeconds = (performance.now() - start) / 1000;
  await progress.until(() => counts.every((c) => c >= written.length), 30_000);
  const disconnected = streams.filter((s) => s.ended).length;
  streams.forEach((s) => s.close());
  const lags: number[] = [];
  for (let i = 0; i < deliveries; i++) {
    const at = writtenAt.get(deliveredVersion[i]);
    if (at !== undefined) lags.push(deliveredAt[i] - at);
  }
  const delivered = counts.reduce((a, b) => a + b, 0);
  return {
    events: written.length,
    rate: written.length / writeSeconds,
    expected: written.length * WATCHERS,
    delivered,
    lost: written.length * WATCHERS - delivered,
    disordered,
    disconnected,
    lag: sorted(lags),
  };
}

async function main(): Promise<void> {
  const cluster = await Cluster.start(2);
  const sql = new Client({ connectionString: cluster.databaseUrl });
  await sql.connect();
  try {
    const [a] = cluster.servers;
    const template = await storedTemplate(a.url, sql);

    const lat = await latency(cluster, sql, template);
    const [same, other] = lat.latencies;
    console.log(`latency same instance p50 ${percentile(same, 50).toFixed(2)} p99 ${percentile(same, 99).toFixed(2)}; other p50 ${percentile(other, 50).toFixed(2)} p99 ${percentile(other, 99).toFixed(2)} ms; lost ${lat.lost}`);

    const rate = await burst(a, sql, template);
    console.log(`burst: ${rate.received} events, ${Math.round(rate.eventsPerSecond)} events/s to one watcher (written at ${Math.round(rate.writesPerSecond)}/s)`);

    const { rssBefore, rssAfter } = await idleMemory(cluster);
    const plain = await creates(a, 'plain');
    const idle = await openMany(WATCHERS, IDLE_URL(a), () => () => undefined);
    const watched = await creates(a, 'watched');
    const idleDropped = idle.filter((s) => s.ended).length;
    idle.forEach((s) => s.close());
    const perWatcher = (rssAfter - rssBefore) / WATCHERS;
    console.log(`idle watchers: RSS ${rssBefore} → ${rssAfter} (${Math.round(perWatcher)} bytes each); creates/s ${Math.round(plain.rps)} → ${Math.round(watched.rps)}`);
    await sleep(1000);

    const fan = await fanOut(a, sql, template);
    console.log(`fan-out: ${JSON.stringify({ ...fan, lag: undefined })}, lag p50 ${percentile(fan.lag, 50).toFixed(1)} p99 ${percentile(fan.lag, 99).toFixed(1)} max ${fan.lag.at(-1)?.toFixed(1)} ms`);

    const ms = (values: number[], p: number) => percentile(values, p);
    const results = table(
      ['measure', 'value'],
      [
        ['commit→client, watcher on the same instance: p50 / p99 ms', `${ms(same, 50).toFixed(2)} / ${ms(same, 99).toFixed(2)}`],
        ['commit→client, watcher on the other instance: p50 / p99 ms', `${ms(other, 50).toFixed(2)} / ${ms(other, 99).toFixed(2)}`],
        ['(of which the INSERT and its commit: p50 / p99 ms)', `${ms(lat.writes, 50).toFixed(2)} / ${ms(lat.writes, 99).toFixed(2)}`],
        ['latency samples without an event within 5 s', lat.lost],
        ['events/s to one watcher (burst of 20,000 changes)', `${Math.round(rate.eventsPerSecond)} (written at ${Math.round(rate.writesPerSecond)}/s; last event ${Math.round(rate.drainMs)} ms after the last commit)`],
        [`${WATCHERS} watchers, changes written`, `${fan.events} at ${Math.round(fan.rate)}/s for ${FAN_SECONDS} s`],
        [`${WATCHERS} watchers: delivered / expected (lost)`, `${fan.delivered} / ${fan.expected} (${fan.lost})`],
        [`${WATCHERS} watchers: repeated or out-of-order events; streams ended by the server`, `${fan.disordered}; ${fan.disconnected}`],
        [`${WATCHERS} watchers: lag commit→client p50 / p99 / max ms`, `${ms(fan.lag, 50).toFixed(1)} / ${ms(fan.lag, 99).toFixed(1)} / ${fan.lag.at(-1)?.toFixed(1)}`],
        [`server RSS before / after ${WATCHERS} idle watches`, `${(rssBefore / 2 ** 20).toFixed(1)} MiB / ${(rssAfter / 2 ** 20).toFixed(1)} MiB`],
        ['memory per idle watcher', `${(perWatcher / 1024).toFixed(1)} KiB`],
        ['creates/s at 16 clients, no watchers (p99 ms)', `${Math.round(plain.rps)} (${plain.p99.toFixed(1)})`],
        [`creates/s at 16 clients, ${WATCHERS} idle watchers (p99 ms)`, `${Math.round(watched.rps)} (${watched.p99.toFixed(1)}); ${idleDropped} watches dropped`],
      ],
    );
    const targets = [
      `- p99 ≤ 20 ms on the same instance: ${ms(same, 99).toFixed(1)} ms — ${ms(same, 99) <= 20 ? 'met' : 'missed'}`,
      `- p99 ≤ 100 ms across instances: ${ms(other, 99).toFixed(1)} ms — ${ms(other, 99) <= 100 ? 'met' : 'missed'}`,
      `- no event lost with ${WATCHERS} watchers: ${fan.lost} lost — ${fan.lost === 0 ? 'met' : 'missed'}`,
      `- ≤ 20 KB per idle watcher: ${(perWatcher / 1024).toFixed(1)} KiB — ${perWatcher <= 20 * 1024 ? 'met' : 'missed'}`,
    ].join('\n');
    writeSection(
      'Watch: `npm run bench:watch`',
      [
        await describeMachine(cluster.databaseUrl),
        '- two server processes over one database; changes written with SQL from the harness (the triggers log them as for API writes), ~1 KB Deployments',
        `- commit→client is timed from the start of the INSERT (so it includes the INSERT and its commit) to the event's arrival at a watcher in the harness; ${LATENCY_SAMPLES} single-row inserts, 5 ms apart`,
        `- the ${WATCHERS} watchers of the fan-out watch one namespace on one instance; the idle watchers watch all namespaces with a label selector no object matches (every change is still tested against each); memory per idle watcher is measured on a fresh third server`,
        '',
        results,
        '',
        '### Targets',
        '',
        targets,
      ].join('\n'),
    );
    console.log(`\n${results}\n\n${targets}\nwritten to bench/results/latest.md`);
  } finally {
    await sql.end();
    await cluster.stop();
  }
}

runBenchmark(main);
