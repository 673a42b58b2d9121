import { ChangeLogCompactor } from '../src/watch/change-log-compactor';
import { http } from './support/http';
import { createNamespaces } from './support/namespaces';
import { startTestServer, TestServer, WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';
import { WatchClient } from './support/watch-client';

let server: TestServer;
const base = '/apis/extensions/v1beta1';
const deployments = (ns: string) => `${base}/namespaces/${ns}/deployments`;

function deployment(name: string, labels: Record<string, string> = {}) {
  return {
    metadata: { name, labels },
    spec: { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
}

async function create(ns: string, name: string, labels?: Record<string, string>) {
  const response = await http(server.url, 'POST', deployments(ns), { body: deployment(name, labels) });
  expect(response.status).toBe(201);
  return response.json;
}

const newest = async () => BigInt((await server.sql<{ rv: string }>('SELECT MAX(resource_version)::text AS rv FROM change_log'))[0].rv);

beforeAll(async () => {
  // the tests' own objects, versions and events are compared exactly: no deployment controller writes besides
  server = await startTestServer(undefined, { COMPACTION_INTERVAL_SECONDS: '3600', CHANGE_LOG_RETENTION_COUNT: '1', ...WITHOUT_DEPLOYMENT_CONTROLLER });
  await createNamespaces(server.url, ['quiet', 'list', 'busy']);
});
afterAll(() => server.close());

describe('allowWatchBookmarks', () => {
  it('sends a BOOKMARK with only kind, apiVersion and resourceVersion before the timeout closes a quiet watch', async () => {
    const created = await create('quiet', 'q0');
    await create('busy', 'b0');
    const watch = await WatchClient.open(server.url, `${deployments('quiet')}?watch=true&allowWatchBookmarks=true&timeoutSeconds=3&resourceVersion=${created.metadata.resourceVersion}`);
    await create('busy', 'b1');
    await watch.end(6000);
    expect(watch.events).toHaveLength(1);
    const [bookmark] = watch.events;
    expect(bookmark.type).toBe('BOOKMARK');
    expect(bookmark.object).toEqual({ kind: 'Deployment', apiVersion: 'extensions/v1beta1', metadata: { resourceVersion: (await newest()).toString() } });

    // the busy namespace's changes were compacted away, yet re-watching from the bookmark is no 410
    await server.app.get(ChangeLogCompactor).compact();
    const again = await WatchClient.open(server.url, `${deployments('quiet')}?watch=true&timeoutSeconds=1&resourceVersion=${bookmark.object.metadata.resourceVersion}`);
    await again.end();
    expect(again.events).toEqual([]);
  });

  it('sends none unless asked', async () => {
    const watch = await WatchClient.open(server.url, `${deployments('quiet')}?watch=true&timeoutSeconds=3&resourceVersion=${await newest()}`);
    await watch.end(6000);
    expect(watch.events).toEqual([]);
  });
});

describe('sendInitialEvents', () => {
  const watchList = (ns: string, extra = '') =>
    `${deployments(ns)}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true${extra}`;

  it('streams the state as ADDED, a bookmark ending it, then every change once', async () => {
    await create('list', 'a', { pick: 'yes' });
    await create('list', 'b', { pick: 'no' });
    await create('list', 'c', { pick: 'yes' });
    const watch = await WatchClient.open(server.url, watchList('list', '&labelSelector=pick%3Dyes'));
    await watch.count(3);
    await create('list', 'd', { pick: 'yes' });
    await watch.count(4);
    expect(watch.summary().slice(0, 2)).toEqual(['ADDED a', 'ADDED c']);
    const end = watch.events[2];
    expect(end.type).toBe('BOOKMARK');
    expect(end.object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    expect(BigInt(end.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(BigInt(watch.events[1].object.metadata.resourceVersion));
    expect(watch.events[3]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'd' } } });
    expect(BigInt(watch.events[3].object.metadata.resourceVersion)).toBeGreaterThan(BigInt(end.object.metadata.resourceVersion));
    watch.close();
  });

  it('with sendInitialEvents=false, only the changes from now', async () => {
    // made just before, while nobody watches: the change feed may not have read it yet when the watch starts
    await create('list', 'just-before');
    const watch = await WatchClient.open(server.url, `${deployments('list')}?watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan`);
    await create('list', 'e');
    await watch.count(1);
    expect(watch.summary()).toEqual(['ADDED e']);
    watch.close();
  });

  it.each([
    ['sendInitialEvents=true', 'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
    ['resourceVersionMatch=NotOlderThan', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'],
    [
      'sendInitialEvents=true&resourceVersionMatch=Exact',
      '[resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]',
    ],
  ])('%s is a 422 on ListOptions', async (query, message) => {
    const response = await http(server.url, 'GET', `${deployments('list')}?watch=true&${query}`);
    expect(response.status).toBe(422);
    expect(response.json.message).toBe(`ListOptions.meta.k8s.io "" is invalid: ${message}`);
  });
});
