import { Client } from 'pg';
import { http } from './support/http';
import { kindNamed } from './support/kinds';
import { ServerProcess } from './support/server-process';
import { startServerProcess } from './support/test-server-process';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';
import { PrimaryProxy, ReplicatedPostgres } from './support/replicated-postgres';
import { WatchClient } from './support/watch-client';

/**
 * One pgkube instance over a primary and an ASYNCHRONOUS streaming standby (Debian's PostgreSQL 15), the primary
 * reached through a TCP proxy that stands in for HAProxy, the standby as the read URL. Reads that may be stale
 * (resourceVersion=0) come from the standby, never those that name a version the client was shown; a standby
 * promoted while behind loses acknowledged changes, which pgkube notices: watches end with 410, versions of the lost
 * history are refused, and new writes take versions past every one served.
 */
jest.setTimeout(120_000);

const COLLECTION = '/apis/extensions/v1beta1/namespaces/default/deployments';
const MANIFEST = kindNamed('Deployment').manifest;

let cluster: ReplicatedPostgres;
let proxy: PrimaryProxy;
let server: ServerProcess;

beforeAll(async () => {
  cluster = await ReplicatedPostgres.start(false);
  proxy = await PrimaryProxy.start(cluster.primary.port);
  server = await startServerProcess({ DATABASE_URL: proxy.url(), DATABASE_READ_URL: cluster.standby.url, ...WITHOUT_DEPLOYMENT_CONTROLLER });
});

afterAll(async () => {
  await server?.stop('SIGKILL');
  await proxy?.close();
  cluster?.stop();
});

async function create(name: string): Promise<string> {
  const response = await http(server.url, 'POST', COLLECTION, { body: { ...MANIFEST, metadata: { name } } });
  expect([name, response.status]).toEqual([name, 201]);
  return response.json.metadata.resourceVersion;
}

async function list(query: string): Promise<{ status: number; names: string[]; resourceVersion: string; continue?: string; reason?: string }> {
  const response = await http(server.url, 'GET', `${COLLECTION}?${query}`);
  const body = response.json;
  return {
    status: response.status,
    names: (body.items ?? []).map((item: { metadata: { name: string } }) => item.metadata.name),
    resourceVersion: body.metadata?.resourceVersion,
    continue: body.metadata?.continue,
    reason: body.reason,
  };
}

async function changeVersions(url: string): Promise<Set<string>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return new Set((await client.query('SELECT resource_version::text AS rv FROM change_log')).rows.map((r) => r.rv as string));
  } finally {
    await client.end();
  }
}

it('reads a state that may be stale from the standby, and one at or after a version the client was shown from the primary', async () => {
  await create('read-0');
  await cluster.replicated();
  const watch = await WatchClient.open(server.url, `${COLLECTION}?watch=true&resourceVersion=${(await list('')).resourceVersion}`);
  await cluster.standby.pauseReplay();
  try {
    const shown = await create('read-1');
    await watch.until((events) => events.some((e) => e.object.metadata.name === 'read-1'));
    // resourceVersion=0, any state: the standby's, which is behind
    const stale = await list('resourceVersion=0');
    expect(stale.names).toEqual(['read-0']);
    expect(BigInt(stale.resourceVersion)).toBeLessThan(BigInt(shown));
    expect((await http(server.url, 'GET', `${COLLECTION}/read-1?resourceVersion=0`)).status).toBe(404);
    expect((await http(server.url, 'GET', `${COLLECTION}/read-1`)).json.metadata.resourceVersion).toBe(shown);
    // every read that names the version the client was shown (through its watch or its write) has what it was shown
    for (const query of [`resourceVersion=${shown}`, `resourceVersion=${shown}&resourceVersionMatch=NotOlderThan`, `resourceVersion=${shown}&resourceVersionMatch=Exact`, '']) {
      const fresh = await list(query);
      expect([query, fresh.names]).toEqual([query, ['read-0', 'read-1']]);
      expect(BigInt(fresh.resourceVersion)).toBeGreaterThanOrEqual(BigInt(shown));
    }
  } finally {
    watch.close();
    await cluster.standby.resumeReplay();
  }
  await cluster.replicated();
  expect((await list('resourceVersion=0')).names).toEqual(['read-0', 'read-1']);
  expect((await http(server.url, 'GET', `${COLLECTION}/read-1?resourceVersion=0`)).status).toBe(200);
});

it('notices a standby promoted behind what was served: 410 for watches and the lost versions, new versions past them', async () => {
  await create('kept-0');
  await cluster.replicated();
  const keptPage = await list('limit=1');
  const watch = await WatchClient.open(server.url, `${COLLECTION}?watch=true&resourceVersion=${keptPage.resourceVersion}`);

  // The standby stops receiving: what the primary acknowledges now is lost by the promotion. More changes than the
  // sequence logs ahead (32), so that the promoted standby's sequence would hand out served versions again.
  await cluster.standby.stopReceiving();
  const lost = await Promise.all(Array.from({ length: 40 }, (_, i) => create(`lost-${i}`)));
  await watch.until((events) => events.filter((e) => e.object.metadata.name?.startsWith('lost-')).length === 40);
  const lostPage = await list('limit=1');
  const served = [...lost, lostPage.resourceVersion].map(BigInt);
  const highest = served.reduce((a, b) => (a > b ? a : b));

  cluster.primary.kill();
  cluster.standby.promote();
  proxy.point(cluster.standby.port);
  proxy.cut();

  // The watcher is told, without any write after the promotion.
  await watch.until((events) => events.some((e) => e.type === 'ERROR'), 20_000);
  const error = watch.events.find((e) => e.type === 'ERROR');
  expect(error?.object).toMatchObject({ kind: 'Status', code: 410 });
  watch.close();

  // A continue token and a list at or not older than a version of the lost history are refused; a token of the kept
  // history goes on.
  expect(await list(`limit=1&continue=${encodeURIComponent(lostPage.continue as string)}`)).toMatchObject({ status: 410, reason: 'Expired' });
  expect(await list(`resourceVersion=${lost[0]}&resourceVersionMatch=Exact`)).toMatchObject({ status: 410, reason: 'Expired' });
  expect(await list(`resourceVersion=${lost[0]}&resourceVersionMatch=NotOlderThan`)).toMatchObject({ status: 410, reason: 'Expired' });
  expect(await list(`limit=1&continue=${encodeURIComponent(keptPage.continue as string)}`)).toMatchObject({ status: 200 });
  const lostWatch = await WatchClient.open(server.url, `${COLLECTION}?watch=true&resourceVersion=${lost[0]}`);
  await lostWatch.until((events) => events.some((e) => e.type === 'ERROR'));
  expect(lostWatch.events[0].object).toMatchObject({ code: 410 });
  lostWatch.close();

  // Writes of the new history take versions past every one served, none of them handed to two changes.
  const after = await Promise.all(['after-0', 'after-1', 'after-2'].map(create));
  for (const version of after) expect(BigInt(version)).toBeGreaterThan(highest);
  const now = await list('');
  expect(now.names.filter((name) => name.startsWith('lost-'))).toEqual([]);
  expect(now.names).toEqual(expect.arrayContaining(['kept-0', 'after-0', 'after-1', 'after-2']));
  const stored = await changeVersions(cluster.standby.url);
  expect(lost.filter((version) => stored.has(version))).toEqual([]);
  // a new watch from now sees the new history's changes
  const fresh = await WatchClient.open(server.url, `${COLLECTION}?watch=true&resourceVersion=${now.resourceVersion}`);
  const next = await create('after-3');
  await fresh.until((events) => events.some((e) => e.object.metadata.resourceVersion === next));
  fresh.close();
});
