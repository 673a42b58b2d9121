import { loadSettings } from '../src/config/settings';
import { http } from './support/http';
import { startTestServer, TestServer } from './support/test-server';
import { WatchClient } from './support/watch-client';

const CORE = '/api/v1/namespaces/default/events';
const V1 = '/apis/events.k8s.io/v1/namespaces/default/events';

const event = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-1' },
  reason: 'Started',
  message: name,
  type: 'Normal',
});

describe('--event-ttl', () => {
  let server: TestServer;
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => http(server.url, method, path, { body, headers });

  beforeAll(async () => {
    server = await startTestServer(undefined, { EVENT_TTL: '2s', COMPACTION_INTERVAL_SECONDS: '1' });
  });
  afterAll(() => server.close());

  it('deletes an event not written for longer than the TTL, which watchers of both versions see as DELETED', async () => {
    const start = (await call('GET', CORE)).json.metadata.resourceVersion;
    const coreWatch = await WatchClient.open(server.url, `${CORE}?watch=1&resourceVersion=${start}`);
    const v1Watch = await WatchClient.open(server.url, `${V1}?watch=1&resourceVersion=${start}`);
    try {
      expect((await call('POST', CORE, event('stale'))).status).toBe(201);
      expect((await call('POST', CORE, event('renewed'))).status).toBe(201);
      const createdAt = Date.now();
      // every write starts the TTL again: `renewed` is patched more often than the TTL, `stale` never
      const renewing = setInterval(() => {
        void call('PATCH', `${CORE}/renewed`, { count: Date.now() % 1000 }, { 'content-type': 'application/merge-patch+json' });
      }, 500);
      try {
        await coreWatch.until((events) => events.some((e) => e.type === 'DELETED'), 8000);
        await v1Watch.until((events) => events.some((e) => e.type === 'DELETED'), 2000);
      } finally {
        clearInterval(renewing);
      }
      expect(Date.now() - createdAt).toBeGreaterThanOrEqual(2000);
      const deleted = coreWatch.events.filter((e) => e.type === 'DELETED');
      expect(deleted.map((e) => e.object.metadata.name)).toEqual(['stale']);
      expect(deleted[0].object).toMatchObject({ apiVersion: 'v1', message: 'stale' });
      expect(v1Watch.events.find((e) => e.type === 'DELETED')?.object).toMatchObject({ apiVersion: 'events.k8s.io/v1', note: 'stale' });
      expect((await call('GET', `${CORE}/stale`)).status).toBe(404);
      expect((await call('GET', `${CORE}/renewed`)).status).toBe(200);
    } finally {
      coreWatch.close();
      v1Watch.close();
    }
  });

  it('leaves other kinds alone', async () => {
    const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'kept' }, spec: { holderIdentity: 'a' } };
    expect((await call('POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', lease)).status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect((await call('GET', '/apis/coordination.k8s.io/v1/namespaces/default/leases/kept')).status).toBe(200);
  });

  it('deletes a backlog larger than one expiry batch, while writes go on', async () => {
    await server.sql(
      `INSERT INTO objects (api_group, resource, body)
       SELECT '', 'events', jsonb_build_object('apiVersion', 'v1', 'kind', 'Event', 'metadata',
         jsonb_build_object('name', 'backlog-' || i, 'namespace', 'default', 'uid', gen_random_uuid()::text, 'creationTimestamp', '2026-01-01T00:00:00Z'),
         'involvedObject', jsonb_build_object('kind', 'Pod', 'namespace', 'default', 'name', 'web-1'), 'message', 'old')
       FROM generate_series(1, 1200) AS i`,
    );
    const written = await Promise.all([1, 2, 3, 4].map((i) => call('POST', CORE, event(`meanwhile-${i}`))));
    expect(written.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const left = async () => Number((await server.sql<{ n: string }>(`SELECT count(*)::text AS n FROM objects WHERE resource = 'events' AND name LIKE 'backlog-%'`))[0].n);
    for (let i = 0; i < 100 && (await left()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await left()).toBe(0);
  });

  it('shows events in kube.events', async () => {
    await call('POST', CORE, event('viewed'));
    const rows = await server.sql(`SELECT object_kind, object_name, type, reason, message, count FROM kube.events WHERE name = 'viewed'`);
    expect(rows).toEqual([{ object_kind: 'Pod', object_name: 'web-1', type: 'Normal', reason: 'Started', message: 'viewed', count: 1 }]);
  });
});

describe('EVENT_TTL setting', () => {
  it('takes upstream’s durations and refuses anything else', () => {
    expect(loadSettings({}).EVENT_TTL).toBe('1h');
    expect(loadSettings({}, ['--event-ttl=1h30m']).EVENT_TTL).toBe('1h30m');
    expect(() => loadSettings({ EVENT_TTL: '3600' })).toThrow(/EVENT_TTL/);
    expect(() => loadSettings({ EVENT_TTL: '0s' })).toThrow(/EVENT_TTL/);
  });
});
