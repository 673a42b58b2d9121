import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { RunningDatabase, startEmbeddedPostgres } from '../src/storage/database/embedded-postgres';
import { freePort } from './support/global-setup';
import { http } from './support/http';
import { kindNamed } from './support/kinds';
import { ServerProcess } from './support/server-process';
import { startServerProcess } from './support/test-server-process';
import { createNamespaces } from './support/namespaces';
import { Event, WatchClient } from './support/watch-client';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

/**
 * Two instances over one PostgreSQL of this test's own, under writes and watches, through three faults: an instance's
 * LISTEN connection terminated, an instance killed with SIGKILL, PostgreSQL restarted. Afterwards every
 * acknowledged write is stored, /readyz reported the outage and recovered without a restart, and every watcher saw
 * every change exactly once and in order, re-watching from its last resourceVersion when its stream was closed.
 */
jest.setTimeout(240_000);

const NAMESPACE = 'faults';
const COLLECTION = `/apis/extensions/v1beta1/namespaces/${NAMESPACE}/deployments`;
const MANIFEST = kindNamed('Deployment').manifest;

let dir: string;
let port: number;
let database: RunningDatabase;
const instances: Record<'a' | 'b', ServerProcess | undefined> = { a: undefined, b: undefined };

const withName = (url: string, name: string) => {
  const u = new URL(url);
  u.searchParams.set('application_name', name);
  return u.toString();
};
// every change is the test's own, counted and checked in order: no deployment controller writes besides
const startInstance = (name: 'a' | 'b') => startServerProcess({ DATABASE_URL: withName(database.url, `pgkube-${name}`), ...WITHOUT_DEPLOYMENT_CONTROLLER });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgkube-faults-'));
  chmodSync(dir, 0o755); // the postgres user must reach its data folder
  port = await freePort();
  database = await startEmbeddedPostgres(join(dir, 'data'), port, () => undefined);
  instances.a = await startInstance('a');
  instances.b = await startInstance('b');
  await createNamespaces(instances.a.url, [NAMESPACE]);
});

afterAll(async () => {
  await Promise.all(Object.values(instances).map((i) => i?.stop('SIGKILL')));
  await database?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The resourceVersion of each create the server acknowledged with 201, by name. */
const acknowledged = new Map<string, bigint>();
let written = 0;

/** Creates one Deployment through an instance that answers; only a 201 counts as acknowledged. */
async function write(): Promise<void> {
  const name = `d-${written++}`;
  const target = instances[written % 2 === 0 ? 'a' : 'b'] ?? instances.a;
  const response = await http(target!.url, 'POST', COLLECTION, { body: { ...MANIFEST, metadata: { name } } }).catch(() => undefined);
  if (response?.status === 201) acknowledged.set(name, BigInt(response.json.metadata.resourceVersion));
}

/** Writes one after another until stopped: the load the faults happen under. */
function keepWriting(): { stop(): Promise<void> } {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await write();
      await pause(5);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

/**
 * A watcher of one instance that, when its stream is closed, watches again from the last resourceVersion it saw (on
 * the instance as it is now, which may have been restarted), as a client-go reflector does.
 */
class Follower {
  readonly events: Event[] = [];
  reopened = 0;
  private current?: WatchClient;
  private taken = 0;
  private stopped = false;

  constructor(
    private readonly instance: () => ServerProcess | undefined,
    private lastVersion: string,
  ) {}

  async run(): Promise<void> {
    while (!this.stopped) {
      const server = this.instance();
      this.current = server && (await WatchClient.open(server.url, `${COLLECTION}?watch=true&resourceVersion=${this.lastVersion}`).catch(() => undefined));
      this.taken = 0;
      while (this.current && !this.current.ended && !this.stopped) {
        this.take();
        await pause(20);
      }
      this.take();
      if (!this.stopped) {
        this.reopened++;
        await pause(200);
      }
    }
  }

  stop(): void {
    this.stopped = true;
    this.current?.close();
  }

  private take(): void {
    if (!this.current) return;
    for (const event of this.current.events.slice(this.taken)) {
      if (event.type === 'ERROR') throw new Error(`watch error: ${JSON.stringify(event.object)}`);
      this.events.push(event);
      this.lastVersion = event.object.metadata.resourceVersion;
    }
    this.taken = this.current.events.length;
  }
}

/** Polls /readyz until `ready(status)` holds; returns the statuses seen. */
async function readyzUntil(server: ServerProcess, ready: (status: number) => boolean, timeoutMs: number): Promise<number[]> {
  const seen: number[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = (await http(server.url, 'GET', '/readyz').catch(() => undefined))?.status ?? 0;
    seen.push(status);
    if (ready(status)) return seen;
    if (Date.now() > deadline) throw new Error(`/readyz answered ${seen.slice(-5).join(', ')} until the deadline`);
    await pause(100);
  }
}

it('keeps every acknowledged write and delivers every change once, in order, through the faults', async () => {
  const start = (await http(instances.a!.url, 'GET', COLLECTION)).json.metadata.resourceVersion;
  const followers = [new Follower(() => instances.a, start), new Follower(() => instances.b, start)];
  const following = followers.map((f) => f.run());
  const writer = keepWriting();
  await pause(300);

  // an instance's LISTEN connection terminated: its change feed must listen again and catch up
  const admin = new Client({ connectionString: database.url });
  await admin.connect();
  const { rows } = await admin.query(
    // the LISTEN connection's last statement: its LISTEN, or pg-listen's check of the connection every 10 s
    `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
      WHERE application_name = 'pgkube-a' AND (query ILIKE 'LISTEN%' OR query = 'SELECT pg_backend_pid()')`,
  );
  await admin.end();
  expect(rows[0].n).toBeGreaterThan(0);
  await pause(500);

  // an instance killed: its watchers' streams end; they watch again on the instance started anew
  await instances.b!.stop('SIGKILL');
  instances.b = undefined;
  await pause(500);
  instances.b = await startInstance('b');
  await pause(500);

  // PostgreSQL restarted: /readyz says so while it is down and recovers by itself
  await database.stop();
  const during = await readyzUntil(instances.a!, (status) => status !== 200, 15_000);
  database = await startEmbeddedPostgres(join(dir, 'data'), port, () => undefined);
  const after = await readyzUntil(instances.a!, (status) => status === 200, 60_000);
  expect(during[during.length - 1]).not.toBe(200);
  expect(after[after.length - 1]).toBe(200);
  await readyzUntil(instances.b!, (status) => status === 200, 60_000);
  const before = acknowledged.size;
  while (acknowledged.size < before + 20) await pause(50); // writes are acknowledged again
  await writer.stop();

  expect(acknowledged.size).toBeGreaterThanOrEqual(40);
  const stored = await http(instances.a!.url, 'GET', COLLECTION);
  const storedNames = new Set(stored.json.items.map((item: any) => item.metadata.name));
  expect([...acknowledged.keys()].filter((name) => !storedNames.has(name))).toEqual([]);

  const newest = stored.json.items.reduce((max: bigint, item: any) => (BigInt(item.metadata.resourceVersion) > max ? BigInt(item.metadata.resourceVersion) : max), 0n);
  const deadline = Date.now() + 60_000;
  while (followers.some((f) => !f.events.some((e) => BigInt(e.object.metadata.resourceVersion) >= newest)) && Date.now() < deadline) await pause(50);
  for (const f of followers) f.stop();
  await Promise.all(following);

  const expected = stored.json.items.map((item: any) => `ADDED ${item.metadata.name} ${item.metadata.resourceVersion}`).sort();
  for (const follower of followers) {
    const versions = follower.events.map((e) => BigInt(e.object.metadata.resourceVersion));
    expect(versions).toEqual([...versions].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
    expect(new Set(versions).size).toBe(versions.length);
    expect(follower.events.map((e) => `${e.type} ${e.object.metadata.name} ${e.object.metadata.resourceVersion}`).sort()).toEqual(expected);
  }
  expect(followers[1].reopened).toBeGreaterThan(0); // the killed instance's watcher had to watch again
});
