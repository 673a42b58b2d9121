import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { ChangeLogCompactor } from '../src/watch/change-log-compactor';
import { http } from './support/http';
import { kubectl, KUBECTLS } from './support/kubectl';
import { sample, scrape } from './support/metrics';
import { startTestServer, TestServer, WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';
import { WatchClient } from './support/watch-client';

const deployments = '/apis/extensions/v1beta1/namespaces/default/deployments';
const manifest = readFileSync(join(__dirname, 'fixtures', 'deployment.yaml'), 'utf8');
const request = (labels: Record<string, string>) => ({
  group: 'extensions',
  version: 'v1beta1',
  resource: 'deployments',
  subresource: '',
  component: 'apiserver',
  ...labels,
});

let server: TestServer;
beforeAll(async () => {
  // the tests' own objects, versions and events are compared exactly: no deployment controller writes besides
  server = await startTestServer(undefined, { MAX_MUTATING_REQUESTS_INFLIGHT: '1', COMPACTION_INTERVAL_SECONDS: '3600', ...WITHOUT_DEPLOYMENT_CONTROLLER });
});
afterAll(() => server.close());

describe('/metrics after a kubectl session', () => {
  let text: string;
  let watch: WatchClient;
  beforeAll(async () => {
    watch = await WatchClient.open(server.url, `${deployments}?watch=true`);
    const client = KUBECTLS[0];
    expect((await kubectl(client, server.url, ['create', '-f', '-'], manifest)).code).toBe(0);
    expect((await kubectl(client, server.url, ['get', 'deployments'])).code).toBe(0);
    expect((await kubectl(client, server.url, ['label', 'deployment', 'web', 'tier=front'])).code).toBe(0);
    expect((await http(server.url, 'GET', `${deployments}/missing`)).status).toBe(404);
    expect((await http(server.url, 'GET', '/apis/extensions/v1beta1/namespaces/default/made-up')).status).toBe(404);
    await watch.count(2);
    await server.app.get(ChangeLogCompactor).compact();
    text = await scrape(server.url);
  });
  afterAll(() => watch.close());

  it('is in the Prometheus text format', async () => {
    const response = await http(server.url, 'GET', '/metrics');
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(text).toMatch(/^# HELP apiserver_request_total /m);
    expect(text).toMatch(/^# TYPE apiserver_request_duration_seconds histogram$/m);
  });

  it('counts requests by verb, resource, scope and code, with latency histograms', () => {
    expect(sample(text, 'apiserver_request_total', request({ verb: 'POST', scope: 'namespace', code: '201' }))).toBe(1);
    expect(sample(text, 'apiserver_request_total', request({ verb: 'LIST', scope: 'namespace', code: '200' }))).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'apiserver_request_total', request({ verb: 'PATCH', scope: 'resource', code: '200' }))).toBe(1);
    expect(sample(text, 'apiserver_request_total', request({ verb: 'GET', scope: 'resource', code: '404' }))).toBe(1);
    expect(sample(text, 'apiserver_request_total', { verb: 'GET', resource: '', code: '200' })).toBeGreaterThanOrEqual(1); // discovery
    expect(text).not.toContain('made-up'); // a resource that does not exist is not a label value
    const bucket = request({ verb: 'POST', scope: 'namespace', le: '60' });
    expect(sample(text, 'apiserver_request_duration_seconds_bucket', bucket)).toBe(1);
    expect(sample(text, 'apiserver_request_duration_seconds_count', request({ verb: 'POST', scope: 'namespace' }))).toBe(1);
  });

  it('keeps watches out of the latency histogram and counts the open ones as long-running', async () => {
    const watchLabels = request({ verb: 'WATCH', scope: 'namespace' });
    expect(sample(text, 'apiserver_request_duration_seconds_count', watchLabels)).toBeUndefined();
    expect(sample(text, 'apiserver_longrunning_requests', watchLabels)).toBe(1);
  });

  it('shows open watches per resource and the events sent to them', () => {
    const kind = { group: 'extensions', version: 'v1beta1', kind: 'Deployment' };
    expect(sample(text, 'apiserver_registered_watchers', kind)).toBe(1);
    expect(sample(text, 'apiserver_watch_events_total', kind)).toBe(watch.events.length);
    expect(sample(text, 'pgkube_change_feed_changes_total', { group: 'extensions', resource: 'deployments' })).toBe(2);
  });

  it('shows the change feed caught up with the change log', async () => {
    const [{ newest }] = await server.sql<{ newest: string }>('SELECT MAX(resource_version)::text AS newest FROM change_log');
    expect(sample(text, 'pgkube_change_log_resource_version', { position: 'newest' })).toBe(Number(newest));
    expect(sample(text, 'pgkube_change_feed_delivered_resource_version')).toBe(Number(newest));
    expect(sample(text, 'pgkube_change_feed_lag')).toBe(0);
    expect(sample(text, 'pgkube_change_feed_connected')).toBe(1);
  });

  it('shows the database pool, compaction runs and the controllers\' leadership', () => {
    expect(sample(text, 'pgkube_database_pool_max_connections')).toBe(5);
    expect(sample(text, 'pgkube_database_pool_connections', { state: 'max' })).toBeUndefined();
    expect(sample(text, 'pgkube_database_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'pgkube_change_log_compactions_total', { result: 'idle' })).toBe(1);
    expect(sample(text, 'leader_election_master_status', { name: 'pgkube-garbagecollector' })).toBe(1);
    expect(sample(text, 'workqueue_depth', { name: 'garbagecollector' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });
});

describe('the in-flight limit (--max-mutating-requests-inflight=1)', () => {
  it('answers a write beyond the limit 429 with Retry-After, while reads go on', async () => {
    const blocker = new Client({ connectionString: server.databaseUrl });
    await blocker.connect();
    try {
      await blocker.query('SELECT pg_advisory_lock(7365, 1)'); // every write waits for the resourceVersion lock
      const body = { metadata: { name: 'held' }, spec: { template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } } };
      const first = http(server.url, 'POST', deployments, { body });
      for (let waiting = 0; waiting === 0; ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        [{ waiting }] = await server.sql<{ waiting: number }>("SELECT COUNT(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
      }
      const second = await http(server.url, 'POST', deployments, { body: { ...body, metadata: { name: 'refused' } } });
      expect(second.status).toBe(429);
      expect(second.headers.get('retry-after')).toBe('1');
      expect(second.json).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', code: 429, details: { retryAfterSeconds: 1 } });
      expect((await http(server.url, 'GET', deployments)).status).toBe(200);
      expect(sample(await scrape(server.url), 'apiserver_current_inflight_requests', { request_kind: 'mutating' })).toBe(1);
      await blocker.query('SELECT pg_advisory_unlock(7365, 1)');
      expect((await first).status).toBe(201);
      const text = await scrape(server.url);
      expect(sample(text, 'apiserver_request_total', request({ verb: 'POST', scope: 'namespace', code: '429' }))).toBe(1);
      expect(sample(text, 'apiserver_current_inflight_requests', { request_kind: 'mutating' })).toBe(0);
    } finally {
      await blocker.end();
    }
  });
});
