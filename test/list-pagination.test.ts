import { decodeEnveloped } from '../src/apiserver/codec/protobuf/envelope';
import { ChangeLogCompactor } from '../src/watch/change-log-compactor';
import { PROTOBUF } from './support/protobuf';
import { http, HttpResult } from './support/http';
import { createNamespaces } from './support/namespaces';
import { startTestServer, TestServer, WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

let server: TestServer;
const base = '/apis/extensions/v1beta1';
const deployments = (ns = 'default') => `${base}/namespaces/${ns}/deployments`;
const ALL = `${base}/deployments`;
const PSPS = `${base}/podsecuritypolicies`;

function deployment(name: string, namespace: string, labels: Record<string, string> = {}) {
  return {
    metadata: { name, namespace, labels },
    spec: { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
}

const psp = (name: string) => ({
  metadata: { name },
  spec: { seLinux: { rule: 'RunAsAny' }, runAsUser: { rule: 'RunAsAny' }, supplementalGroups: { rule: 'RunAsAny' }, fsGroup: { rule: 'RunAsAny' } },
});

const BACKGROUND = { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' };
const get = (path: string) => http(server.url, 'GET', path);
const keys = (response: HttpResult) => response.json.items.map((i: any) => `${i.metadata.namespace ?? ''}/${i.metadata.name}`);
const versions = (response: HttpResult) => response.json.items.map((i: any) => `${i.metadata.name}@${i.metadata.resourceVersion}`);

/** Every page of a list, following continue tokens. */
async function pages(path: string, limit: number, between?: (page: number) => Promise<void>): Promise<HttpResult[]> {
  const result: HttpResult[] = [];
  let token: string | undefined;
  do {
    const url = new URL(path, server.url);
    url.searchParams.set('limit', String(limit));
    if (token) {
      // as client-go's pager, the pages after the first ask for no resourceVersion
      url.searchParams.delete('resourceVersion');
      url.searchParams.set('continue', token);
    }
    const response = await get(`${url.pathname}${url.search}`);
    expect(response.status).toBe(200);
    result.push(response);
    token = response.json.metadata.continue;
    if (token && between) await between(result.length);
  } while (token);
  return result;
}

async function create(path: string, body: unknown) {
  const response = await http(server.url, 'POST', path, { body });
  expect(response.status).toBe(201);
  return response.json;
}

beforeAll(async () => {
  // the objects, versions and events of the tests' own writes are compared exactly: no controller writes besides
  server = await startTestServer(undefined, { COMPACTION_INTERVAL_SECONDS: '3600', ...WITHOUT_DEPLOYMENT_CONTROLLER });
  await createNamespaces(server.url, ['a', 'b', 'c', 'd', 'e', 'f']);
  for (const ns of ['a', 'b']) {
    for (let i = 0; i < 5; i++) await create(deployments(ns), deployment(`d${i}`, ns, { parity: i % 2 ? 'odd' : 'even' }));
  }
  for (let i = 0; i < 3; i++) await create(PSPS, psp(`p${i}`));
});
afterAll(() => server.close());

describe('limit and continue', () => {
  it('pages a namespace in key order with a continue token (and no remaining count, which would cost a scan)', async () => {
    const [first, second, third] = await pages(deployments('a'), 2);
    expect(keys(first)).toEqual(['a/d0', 'a/d1']);
    expect(first.json.metadata).not.toHaveProperty('remainingItemCount');
    expect(keys(second)).toEqual(['a/d2', 'a/d3']);
    expect(keys(third)).toEqual(['a/d4']);
    expect(third.json.metadata).not.toHaveProperty('continue');
    expect(second.json.metadata.resourceVersion).toBe(first.json.metadata.resourceVersion);
  });

  it('pages all namespaces, cluster-scoped kinds and selected lists', async () => {
    expect((await pages(ALL, 3)).flatMap(keys)).toEqual(keys(await get(ALL)));
    expect((await pages(PSPS, 2)).flatMap(keys)).toEqual(['/p0', '/p1', '/p2']);
    const selected = await pages(`${ALL}?labelSelector=parity%3Dodd`, 1);
    expect(selected.flatMap(keys)).toEqual(['a/d1', 'a/d3', 'b/d1', 'b/d3']);
  });

  it('serves every page at the first page\'s resourceVersion while others write', async () => {
    await create(deployments('c'), deployment('x0', 'c'));
    for (let i = 1; i < 8; i++) await create(deployments('c'), deployment(`x${i}`, 'c'));
    const before = await get(deployments('c'));
    let step = 0;
    const writes = async () => {
      step += 1;
      const name = `x${step}`;
      const current = (await get(`${deployments('c')}/${name}`)).json;
      current.metadata.labels = { touched: String(step) };
      expect((await http(server.url, 'PUT', `${deployments('c')}/${name}`, { body: current })).status).toBe(200);
      expect((await http(server.url, 'DELETE', `${deployments('c')}/x${step + 4}`, { body: BACKGROUND })).status).toBe(200);
      await create(deployments('c'), deployment(`y${step}`, 'c'));
      await create(deployments('c'), deployment(`x${step + 4}`, 'c'));
    };
    const paged = await pages(deployments('c'), 2, writes);
    expect(paged.flatMap(versions)).toEqual(versions(before));
    expect(new Set(paged.map((p) => p.json.metadata.resourceVersion))).toEqual(new Set([before.json.metadata.resourceVersion]));
    expect(paged.flatMap((p) => p.json.items)).toEqual(before.json.items);
  });

  it('serves the pages of a label selection over all namespaces at the first page\'s resourceVersion while others write', async () => {
    for (const ns of ['e', 'f']) {
      for (let i = 0; i < 6; i++) await create(deployments(ns), deployment(`s${i}`, ns, { set: i % 3 ? 'in' : 'out' }));
    }
    const selection = `${ALL}?labelSelector=set%3Din`;
    const before = await get(selection);
    expect(keys(before)).toEqual(['e/s1', 'e/s2', 'e/s4', 'e/s5', 'f/s1', 'f/s2', 'f/s4', 'f/s5']);
    const relabel = async (ns: string, name: string, set: string) => {
      const current = (await get(`${deployments(ns)}/${name}`)).json;
      current.metadata.labels = { set };
      current.spec.replicas = 7;
      expect((await http(server.url, 'PUT', `${deployments(ns)}/${name}`, { body: current })).status).toBe(200);
    };
    // after the first page (which spans both namespaces), ahead of the pages: a selected object changed, one taken
    // out of the selection, one put in, one deleted, one created into it
    const writes = async (page: number) => {
      if (page !== 1) return;
      await relabel('f', 's4', 'in');
      await relabel('f', 's2', 'out');
      await relabel('f', 's0', 'in');
      expect((await http(server.url, 'DELETE', `${deployments('f')}/s5`, { body: BACKGROUND })).status).toBe(200);
      await create(deployments('e'), deployment('s6', 'e', { set: 'in' }));
    };
    const paged = await pages(selection, 5, writes);
    expect(paged.map(keys)).toEqual([['e/s1', 'e/s2', 'e/s4', 'e/s5', 'f/s1'], ['f/s2', 'f/s4', 'f/s5']]);
    expect(paged.flatMap((p) => p.json.items)).toEqual(before.json.items);
    const rv = before.json.metadata.resourceVersion;
    expect((await get(`${selection}&resourceVersion=${rv}&resourceVersionMatch=Exact`)).json.items).toEqual(before.json.items);
    expect((await pages(`${selection}&resourceVersion=${rv}`, 5)).flatMap((p) => p.json.items)).toEqual(before.json.items);
    expect(keys(await get(selection))).toEqual(['e/s1', 'e/s2', 'e/s4', 'e/s5', 'e/s6', 'f/s0', 'f/s1', 'f/s4']);
  });

  it('writes the items of a page as a whole list writes them: every metadata member, and the selfLinks of names to escape', async () => {
    const full = deployment('', 'd', { tier: 'web', '10': 'ten' });
    const metadata = { ...full.metadata, generateName: 'gen-', annotations: { 'note.example.com/a': 'x: "y", z' }, finalizers: ['example.com/keep'] };
    for (let i = 0; i < 3; i++) await create(deployments('d'), { ...full, metadata });
    const roles = '/apis/rbac.authorization.k8s.io/v1/clusterroles';
    for (const name of ['page:x', 'page:é y']) await create(roles, { metadata: { name, labels: { paged: 'yes' } }, rules: [] });
    const whole = await get(deployments('d'));
    expect(whole.json.items).toHaveLength(3);
    expect((await pages(deployments('d'), 2)).flatMap((p) => p.json.items)).toEqual(whole.json.items);
    const paged = (await pages(`${roles}?labelSelector=paged`, 1)).flatMap((p) => p.json.items);
    expect(paged.map((role: any) => role.metadata.selfLink)).toEqual([`${roles}/page%3Ax`, `${roles}/page%3A%C3%A9%20y`]);
    expect(paged).toEqual((await get(`${roles}?labelSelector=paged`)).json.items);
  });

  it('answers a protobuf list whole, its 1.7 ListMeta having no continue field', async () => {
    const response = await http(server.url, 'GET', `${deployments('a')}?limit=2`, { headers: { accept: PROTOBUF } });
    expect(response.status).toBe(200);
    const list = decodeEnveloped(response.bytes) as any;
    expect(list.items.map((i: any) => i.metadata.name)).toEqual(['d0', 'd1', 'd2', 'd3', 'd4']);
  });

  it('refuses malformed tokens and a resourceVersion beside a token with 400', async () => {
    for (const token of ['%%%', Buffer.from('{"v":"other","rv":1,"start":"a/b\\u0000"}').toString('base64url'), Buffer.from('{"v":"meta.k8s.io/v1","rv":0,"start":"a/b\\u0000"}').toString('base64url')]) {
      const response = await get(`${deployments('a')}?limit=1&continue=${encodeURIComponent(token)}`);
      expect(response.status).toBe(400);
      expect(response.json.message).toMatch(/^invalid continue token: continue key is not valid/);
    }
    const token = (await get(`${deployments('a')}?limit=1`)).json.metadata.continue;
    const both = await get(`${deployments('a')}?limit=1&continue=${token}&resourceVersion=5`);
    expect(both.status).toBe(400);
    expect(both.json.message).toBe('specifying resource version is not allowed when using continue');
  });
});

describe('resourceVersion and resourceVersionMatch', () => {
  it('serves the state at an Exact version, and the legacy exact read of a paged list', async () => {
    const before = await get(deployments('b'));
    const rv = before.json.metadata.resourceVersion;
    const current = (await get(`${deployments('b')}/d1`)).json;
    current.spec.replicas = 7;
    expect((await http(server.url, 'PUT', `${deployments('b')}/d1`, { body: current })).status).toBe(200);
    expect((await http(server.url, 'DELETE', `${deployments('b')}/d2`, { body: BACKGROUND })).status).toBe(200);
    await create(deployments('b'), deployment('new', 'b'));

    const exact = await get(`${deployments('b')}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect(exact.status).toBe(200);
    expect(exact.json.metadata.resourceVersion).toBe(rv);
    expect(exact.json.items).toEqual(before.json.items);
    const legacy = await pages(`${deployments('b')}?resourceVersion=${rv}`, 2);
    expect(legacy.flatMap((p) => p.json.items)).toEqual(before.json.items);

    const newest = await get(`${deployments('b')}?resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`);
    expect(keys(newest)).toEqual(['b/d0', 'b/d1', 'b/d3', 'b/d4', 'b/new']);
    expect(keys(await get(`${deployments('b')}?resourceVersion=0`))).toEqual(keys(newest));
  });

  it.each([
    ['resourceVersionMatch=Exact', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'],
    ['resourceVersion=0&resourceVersionMatch=Exact', 'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"'],
    ['resourceVersion=1&resourceVersionMatch=Newest', 'resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""'],
    ['resourceVersion=1&resourceVersionMatch=Exact&continue=abc', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided'],
    ['sendInitialEvents=true', 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'],
  ])('%s is a 422 on ListOptions', async (query, cause) => {
    const response = await get(`${deployments('a')}?${query}`);
    expect(response.status).toBe(422);
    expect(response.json).toMatchObject({ reason: 'Invalid', details: { group: 'meta.k8s.io', kind: 'ListOptions' } });
    expect(response.json.message).toBe(`ListOptions.meta.k8s.io "" is invalid: ${cause}`);
  });

  it('answers a version newer than the newest with 504 after waiting', async () => {
    const response = await get(`${deployments('a')}?resourceVersion=999999999&resourceVersionMatch=Exact`);
    expect(response.status).toBe(504);
  });
});

describe('after compaction', () => {
  it('answers 410 Expired, with a token that goes on at the newest state for a paged list', async () => {
    const first = await get(`${ALL}?limit=3`);
    const rv = first.json.metadata.resourceVersion;
    await create(deployments('d'), deployment('late', 'd'));
    await server.sql(`UPDATE change_log_compaction SET compacted_through = (SELECT MAX(resource_version) FROM change_log)`);
    await server.app.get(ChangeLogCompactor).compact();

    const expired = await get(`${ALL}?limit=3&continue=${first.json.metadata.continue}`);
    expect(expired.status).toBe(410);
    expect(expired.json).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410 });
    expect(expired.json.message).toMatch(/^The provided continue parameter is too old/);
    const rest = await pages(`${ALL}?continue=${expired.json.metadata.continue}`, 100);
    expect(rest.flatMap(keys)).toEqual(keys(await get(ALL)).filter((key: string) => !keys(first).includes(key)));

    const exact = await get(`${ALL}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect(exact.status).toBe(410);
    expect(exact.json).toMatchObject({ reason: 'Expired', message: 'The resourceVersion for the provided list is too old.' });
  });
});
