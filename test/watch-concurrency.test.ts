import { http } from './support/http';
import { createNamespaces } from './support/namespaces';
import { createTestDatabase, dropTestDatabase, startTestServer, TestServer, WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';
import { WatchClient } from './support/watch-client';

/**
 * Two instances over one database, concurrent writers through both, watchers on both: every committed change must
 * reach every watcher exactly once, in resourceVersion order, also when one instance's database connections are cut.
 */
const WRITERS = 8;
const OBJECTS_PER_WRITER = 12;
const base = '/apis/extensions/v1beta1';

let databaseUrl: string;
let a: TestServer;
let b: TestServer;

function withApplicationName(url: string, name: string): string {
  const u = new URL(url);
  u.searchParams.set('application_name', name);
  return u.toString();
}

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  // the tests' own objects, versions and events are compared exactly: no deployment controller writes besides
  a = await startTestServer(withApplicationName(databaseUrl, 'pgkube-a'), WITHOUT_DEPLOYMENT_CONTROLLER);
  b = await startTestServer(withApplicationName(databaseUrl, 'pgkube-b'), WITHOUT_DEPLOYMENT_CONTROLLER);
  await createNamespaces(a.url, ['calm', 'cut'].flatMap((round) => [0, 1, 2].map((index) => `${round}-${index}`)));
});
afterAll(async () => {
  await a.close();
  await b.close();
  await dropTestDatabase(databaseUrl);
});

/** Sends a request through one instance, falling back to the other while it cannot reach the database. */
async function send(method: string, path: string, body: unknown, first: TestServer, second: TestServer) {
  for (let attempt = 0; ; attempt++) {
    const target = attempt % 2 === 0 ? first : second;
    const response = await http(target.url, method, path, { body }).catch(() => undefined);
    if (response && response.status < 500) return response;
    if (attempt > 40) throw new Error(`${method} ${path} kept failing: ${response?.status} ${response?.text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One writer: creates its objects, changes each twice, deletes every other one. */
async function writer(index: number, round: string): Promise<void> {
  const [first, second] = index % 2 === 0 ? [a, b] : [b, a];
  const ns = `${round}-${index % 3}`;
  for (let i = 0; i < OBJECTS_PER_WRITER; i++) {
    const name = `w${index}-${i}`;
    const path = `${base}/namespaces/${ns}/deployments`;
    const body = {
      metadata: { name, labels: { writer: String(index) } },
      spec: { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    await send('POST', path, body, first, second);
    for (const step of ['1', '2']) {
      const current = (await send('GET', `${path}/${name}`, undefined, second, first)).json;
      current.metadata.labels.step = step;
      delete current.metadata.resourceVersion;
      await send('PUT', `${path}/${name}`, current, first, second);
    }
    if (i % 2 === 0) await send('DELETE', `${path}/${name}`, { propagationPolicy: 'Background' }, second, first);
  }
}

async function committedSince(since: bigint): Promise<bigint[]> {
  const rows = await a.sql<{ rv: string }>(
    `SELECT resource_version::text AS rv FROM change_log
     WHERE api_group = 'extensions' AND resource = 'deployments' AND resource_version > $1 ORDER BY resource_version`,
    [since.toString()],
  );
  return rows.map((r) => BigInt(r.rv));
}

async function runRound(round: string, duringWrites?: () => Promise<void>): Promise<void> {
  const start = BigInt((await http(a.url, 'GET', `${base}/deployments`)).json.metadata.resourceVersion);
  const from = `resourceVersion=${start}`;
  const watchers = await Promise.all([
    WatchClient.open(a.url, `${base}/deployments?watch=true&${from}`),
    WatchClient.open(b.url, `${base}/deployments?watch=true&${from}`),
    WatchClient.open(a.url, `${base}/watch/deployments?${from}`),
    WatchClient.open(b.url, `${base}/watch/deployments?${from}`),
  ]);
  try {
    const writes = Promise.all(Array.from({ length: WRITERS }, (_, i) => writer(i, round)));
    if (duringWrites) await duringWrites();
    await writes;
    const committed = await committedSince(start);
    expect(committed.length).toBe(WRITERS * OBJECTS_PER_WRITER * 3 + (WRITERS * OBJECTS_PER_WRITER) / 2);
    const last = committed[committed.length - 1];
    for (const watcher of watchers) {
      await watcher.until((events) => events.some((e) => BigInt(e.object.metadata.resourceVersion) === last), 30_000);
      const delivered = watcher.events.map((e) => BigInt(e.object.metadata.resourceVersion));
      expect(delivered).toEqual(committed);
    }
  } finally {
    for (const watcher of watchers) watcher.close();
  }
}

describe('two instances, concurrent writers, watchers on both', () => {
  it('delivers every committed change to every watcher exactly once, in order', async () => {
    await runRound('calm');
  });

  it('still does when one instance loses its database connections mid-run', async () => {
    await runRound('cut', async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const cut = await a.sql<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = 'pgkube-b'`,
      );
      expect(cut[0].n).toBeGreaterThan(0);
    });
  });
});
