import { IncomingMessage, request } from 'node:http';
import { ChangeLogCompactor } from '../src/watch/change-log-compactor';
import { http } from './support/http';
import { sample, scrape } from './support/metrics';
import { createNamespaces } from './support/namespaces';
// the watches' events are compared exactly: the servers run no deployment controller
import { startTestServer, TestServer, WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';
import { WatchClient } from './support/watch-client';

const base = '/apis/extensions/v1beta1';
const path = (ns: string) => `${base}/namespaces/${ns}/deployments`;

function deployment(name: string, annotations: Record<string, string> = {}) {
  return {
    metadata: { name, annotations },
    spec: { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
}

async function createMany(server: TestServer, ns: string, count: number, annotations?: Record<string, string>) {
  const versions: bigint[] = [];
  for (let i = 0; i < count; i++) {
    const response = await http(server.url, 'POST', path(ns), { body: deployment(`d${i}`, annotations) });
    expect(response.status).toBe(201);
    versions.push(BigInt(response.json.metadata.resourceVersion));
  }
  return versions;
}

describe('change-log compaction', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(undefined, { CHANGE_LOG_RETENTION_COUNT: '5', COMPACTION_INTERVAL_SECONDS: '3600', ...WITHOUT_DEPLOYMENT_CONTROLLER });
    await createNamespaces(server.url, ['count']);
  });
  afterAll(() => server.close());

  it('keeps the newest changes by count, raises the horizon, and answers older watches with 410', async () => {
    const [policy] = await server.sql<{ n: number }>('SELECT count(*)::int AS n FROM change_log'); // the default RBAC policy's
    const versions = await createMany(server, 'count', 10);
    const result = await server.app.get(ChangeLogCompactor).compact();
    expect(result).toEqual({ removed: policy.n + 5, compactedThrough: versions[4] });
    const rows = await server.sql<{ rv: string }>('SELECT resource_version::text AS rv FROM change_log ORDER BY resource_version');
    expect(rows.map((r) => BigInt(r.rv))).toEqual(versions.slice(5));
    const [horizon] = await server.sql<{ through: string }>('SELECT compacted_through::text AS through FROM change_log_compaction');
    expect(BigInt(horizon.through)).toBe(versions[4]);

    const gone = await WatchClient.open(server.url, `${path('count')}?watch=true&resourceVersion=${versions[3]}`);
    await gone.end();
    expect(gone.events).toHaveLength(1);
    expect(gone.events[0].object).toMatchObject({ reason: 'Gone', code: 410 });

    const fine = await WatchClient.open(server.url, `${path('count')}?watch=true&resourceVersion=${versions[4]}`);
    await fine.count(5);
    expect(fine.summary()).toEqual(['ADDED d5', 'ADDED d6', 'ADDED d7', 'ADDED d8', 'ADDED d9']);
    fine.close();
  });

  it('removes changes older than the age limit but always keeps the newest', async () => {
    const later = new Date(Date.now() + 2 * 3600 * 1000);
    const result = await server.app.get(ChangeLogCompactor).compact(later);
    expect(result.removed).toBe(4);
    const rows = await server.sql('SELECT 1 FROM change_log');
    expect(rows).toHaveLength(1);
    const list = await http(server.url, 'GET', path('count'));
    expect(list.json.items).toHaveLength(10);
    expect(BigInt(list.json.metadata.resourceVersion)).toBe(BigInt(result.compactedThrough as bigint) + 1n);
  });

  it('removes a change log larger than one transaction removes, in one run, up to the retention', async () => {
    // 25,000 changes by plain SQL (the triggers log them as API writes), more than a compaction transaction takes
    await server.sql(
      `INSERT INTO objects (api_group, resource, body)
       SELECT 'extensions', 'deployments', jsonb_build_object('metadata', jsonb_build_object('namespace', 'bulk', 'name', 'd' || i, 'uid', gen_random_uuid()))
       FROM generate_series(1, 25000) i`,
    );
    const [before] = await server.sql<{ n: number; kept: string }>(
      'SELECT count(*)::int AS n, (SELECT resource_version FROM change_log ORDER BY resource_version DESC OFFSET 5 LIMIT 1)::text AS kept FROM change_log',
    );
    expect(before.n).toBeGreaterThan(25000);
    const result = await server.app.get(ChangeLogCompactor).compact();
    expect(result).toEqual({ removed: before.n - 5, compactedThrough: BigInt(before.kept) });
    const [left] = await server.sql<{ n: number }>('SELECT count(*)::int AS n FROM change_log');
    expect(left.n).toBe(5);
  });
});

describe('compaction on its schedule', () => {
  it('runs by itself every COMPACTION_INTERVAL_SECONDS', async () => {
    const server = await startTestServer(undefined, { CHANGE_LOG_RETENTION_COUNT: '2', COMPACTION_INTERVAL_SECONDS: '1', ...WITHOUT_DEPLOYMENT_CONTROLLER });
    try {
      await createNamespaces(server.url, ['scheduled']);
      await createMany(server, 'scheduled', 6);
      const deadline = Date.now() + 5000;
      let rows = 6;
      while (rows > 2 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        rows = (await server.sql('SELECT 1 FROM change_log')).length;
      }
      expect(rows).toBe(2);
    } finally {
      await server.close();
    }
  });
});

describe('slow watchers and shutdown', () => {
  it('closes a watcher that stops reading once its buffer is full, instead of queueing without bound', async () => {
    const server = await startTestServer(undefined, WITHOUT_DEPLOYMENT_CONTROLLER);
    try {
      let received = 0;
      let ended = false;
      const response = await new Promise<IncomingMessage>((resolve) => request(`${server.url}${path('slow')}?watch=true`, resolve).end());
      response.pause(); // a client that does not read
      response.on('data', (chunk: Buffer) => (received += chunk.toString().split('\n').length - 1));
      response.on('end', () => (ended = true));
      response.on('error', () => (ended = true));
      await createNamespaces(server.url, ['slow']);
      await createMany(server, 'slow', 60, { filler: 'x'.repeat(200 * 1024) });
      response.resume();
      const deadline = Date.now() + 10_000;
      while (!ended && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(ended).toBe(true);
      expect(received).toBeLessThan(60);
      const metrics = await scrape(server.url);
      expect(sample(metrics, 'apiserver_terminated_watchers_total', { resource: 'deployments.extensions' })).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('ends open watch streams cleanly when the server stops', async () => {
    const server = await startTestServer(undefined, WITHOUT_DEPLOYMENT_CONTROLLER);
    const client = await WatchClient.open(server.url, `${path('stop')}?watch=true`);
    await server.close();
    await client.end(5000);
    expect(client.ended).toBe(true);
  });
});
