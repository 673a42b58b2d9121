import { http } from './support/http';
import { createNamespaces } from './support/namespaces';
import { startTestServer, TestServer, WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

let server: TestServer;
const base = '/apis/extensions/v1beta1';
const deployments = (ns = 'default') => `${base}/namespaces/${ns}/deployments`;

function deployment(name: string, labels: Record<string, string>, namespace = 'default', extra: Record<string, unknown> = {}) {
  return {
    metadata: { name, namespace, labels, ...extra },
    spec: { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
}

const names = (response: { json: any }) => response.json.items.map((i: any) => i.metadata.name).sort();
const list = (query: string, path = deployments()) => http(server.url, 'GET', `${path}?${query}`);

beforeAll(async () => {
  // the objects, versions and events of the tests' own writes are compared exactly: no controller writes besides
  server = await startTestServer(undefined, WITHOUT_DEPLOYMENT_CONTROLLER);
  await createNamespaces(server.url, ['other', 'init', 'sweep']);
  const fixtures = [
    deployment('a', { app: 'a', tier: 'web', rank: '5' }),
    deployment('b', { app: 'b', tier: 'db', rank: '12' }),
    deployment('c', { app: 'c', tier: 'web' }),
    deployment('d', { app: 'a', canary: 'true', rank: 'x' }),
    deployment('e', {}),
    deployment('f', { app: 'a' }, 'other'),
  ];
  for (const object of fixtures) {
    const response = await http(server.url, 'POST', deployments(object.metadata.namespace), { body: object });
    expect(response.status).toBe(201);
  }
});
afterAll(() => server.close());

describe('labelSelector', () => {
  it.each([
    ['app=a', ['a', 'd']],
    ['app==a', ['a', 'd']],
    ['app!=a', ['b', 'c', 'e']],
    ['app in (a,b)', ['a', 'b', 'd']],
    ['app in (a, b)', ['a', 'b', 'd']],
    ['app notin (a,b)', ['c', 'e']],
    ['canary', ['d']],
    ['!canary', ['a', 'b', 'c', 'e']],
    ['app in (a,b),tier!=db', ['a', 'd']],
    ['tier=web,app', ['a', 'c']],
    ['rank>6', ['b']],
    ['rank<6', ['a']],
    ['app=', []],
    ['tier in ()', []],
    ['', ['a', 'b', 'c', 'd', 'e']],
    ['app=a,app=b', []],
  ])('%j selects %j', async (selector, expected) => {
    const response = await list(`labelSelector=${encodeURIComponent(selector)}`);
    expect(response.status).toBe(200);
    expect(names(response)).toEqual(expected);
  });

  it('applies across all namespaces', async () => {
    const response = await list('labelSelector=app%3Da', `${base}/deployments`);
    expect(response.json.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`).sort()).toEqual([
      'default/a',
      'default/d',
      'other/f',
    ]);
  });

  it.each([
    ['a=b=c', "found '=', expected: ',' or 'end of string'"],
    ['app in prod', "found 'prod', expected: '('"],
    ['Bad Key=1', 'unable to parse requirement'],
    ['app=a,', "expected: identifier after ','"],
    ['a b', 'unable to parse requirement'],
    ['rank>x', 'must be an integer'],
    ['app=not_valid_', 'invalid label value'],
    ['-bad=1', 'invalid label key'],
    ['app in (a', "expected: ',', or ')'"],
    ['!', 'expected: identifier'],
  ])('%j is a 400 naming the problem', async (selector, message) => {
    const response = await list(`labelSelector=${encodeURIComponent(selector)}`);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(response.json.message).toContain(message);
  });
});

describe('fieldSelector', () => {
  it.each([
    ['metadata.name=a', ['a']],
    ['metadata.name==a', ['a']],
    ['metadata.name!=a', ['b', 'c', 'd', 'e']],
    ['metadata.namespace=default,metadata.name!=b', ['a', 'c', 'd', 'e']],
    ['metadata.namespace=other', []],
    ['metadata.name=a,,', ['a']],
  ])('%j selects %j', async (selector, expected) => {
    const response = await list(`fieldSelector=${encodeURIComponent(selector)}`);
    expect(response.status).toBe(200);
    expect(names(response)).toEqual(expected);
  });

  it('combines with a labelSelector', async () => {
    const response = await list('labelSelector=app%3Da&fieldSelector=metadata.name%3Dd');
    expect(names(response)).toEqual(['d']);
  });

  it('rejects an unsupported field as the apiserver does', async () => {
    const response = await list('fieldSelector=spec.replicas%3D1');
    expect(response.status).toBe(400);
    expect(response.json.message).toBe('"spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });

  it.each([
    ['metadata.name', "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
    ['metadata.name=a=b', 'invalid field selector: unescaped character in value: ='],
    ['metadata.name=a\\x', 'invalid field selector: invalid escape sequence: \\x'],
  ])('%j is a 400', async (selector, message) => {
    const response = await list(`fieldSelector=${encodeURIComponent(selector)}`);
    expect(response.status).toBe(400);
    expect(response.json.message).toBe(message);
  });

  it('matches status.replicas on replicasets, and metadata fields on cluster-scoped kinds', async () => {
    const rs = {
      metadata: { name: 'r1' },
      spec: { template: { metadata: { labels: { app: 'r' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    };
    const rsPath = `${base}/namespaces/default/replicasets`;
    expect((await http(server.url, 'POST', rsPath, { body: rs })).status).toBe(201);
    await server.sql(`UPDATE objects SET body = jsonb_set(body, '{status}', '{"replicas": 3}') WHERE name = 'r1'`);
    expect(names(await list('fieldSelector=status.replicas%3D3', rsPath))).toEqual(['r1']);
    expect(names(await list('fieldSelector=status.replicas%3D0', rsPath))).toEqual([]);

    const psps = `${base}/podsecuritypolicies`;
    const rules = { seLinux: { rule: 'RunAsAny' }, runAsUser: { rule: 'RunAsAny' }, supplementalGroups: { rule: 'RunAsAny' }, fsGroup: { rule: 'RunAsAny' } };
    expect((await http(server.url, 'POST', psps, { body: { metadata: { name: 'p1' }, spec: rules } })).status).toBe(201);
    expect(names(await list('fieldSelector=metadata.name%3Dp1', psps))).toEqual(['p1']);
    expect(names(await list('fieldSelector=metadata.namespace%3D', psps))).toEqual(['p1']);
  });
});

describe('resourceVersion on list', () => {
  it('serves unset, 0 and a reached version from the current state, with the newest version as the list version', async () => {
    const [{ max }] = await server.sql<{ max: string }>('SELECT max(resource_version)::text AS max FROM change_log');
    for (const query of ['', 'resourceVersion=0', `resourceVersion=${max}`, 'resourceVersion=1']) {
      const response = await list(query);
      expect(response.status).toBe(200);
      expect(response.json.metadata.resourceVersion).toBe(max);
    }
  });

  it('answers 504 Timeout for a version that is never reached', async () => {
    const started = Date.now();
    const response = await list('resourceVersion=999999999');
    expect(response.status).toBe(504);
    expect(response.json).toMatchObject({ reason: 'Timeout', details: { retryAfterSeconds: 1 } });
    expect(response.json.message).toMatch(/^Timeout: Too large resource version: 999999999, current: \d+$/);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
  });

  it('rejects a non-numeric version with 400', async () => {
    const response = await list('resourceVersion=abc');
    expect(response.status).toBe(400);
  });
});

describe('initializers', () => {
  const path = deployments('init');
  const pending = { initializers: { pending: [{ name: 'first.example.com' }, { name: 'second.example.com' }] } };

  it('hides an uninitialized object from lists unless includeUninitialized, and shows it on GET', async () => {
    const created = await http(server.url, 'POST', `${path}?includeUninitialized=1`, { body: deployment('u', {}, 'init', pending) });
    expect([201, 202]).toContain(created.status);
    expect(names(await list('', path))).toEqual([]);
    expect(names(await list('includeUninitialized=true', path))).toEqual(['u']);
    expect(names(await list('includeUninitialized=false', path))).toEqual([]);
    expect((await http(server.url, 'GET', `${path}/u`)).status).toBe(200);

    const current = (await http(server.url, 'GET', `${path}/u`)).json;
    current.metadata.initializers.pending = [{ name: 'second.example.com' }];
    expect((await http(server.url, 'PUT', `${path}/u`, { body: current })).status).toBe(200);
    expect(names(await list('', path))).toEqual([]);

    const last = (await http(server.url, 'GET', `${path}/u`)).json;
    last.metadata.initializers.pending = [];
    const done = await http(server.url, 'PUT', `${path}/u`, { body: last });
    expect(done.status).toBe(200);
    expect(done.json.metadata.initializers).toBeUndefined();
    expect(names(await list('', path))).toEqual(['u']);
  });

  it('refuses to add initializers to an initialized object, and invalid initializers', async () => {
    const current = (await http(server.url, 'GET', `${deployments()}/a`)).json;
    current.metadata.initializers = { pending: [{ name: 'late.example.com' }] };
    const refused = await http(server.url, 'PUT', `${deployments()}/a`, { body: current });
    expect(refused.status).toBe(422);
    expect(refused.json.details.causes[0]).toMatchObject({ field: 'metadata.initializers' });

    const empty = await http(server.url, 'POST', path, { body: deployment('v', {}, 'init', { initializers: { pending: [] } }) });
    expect(empty.status).toBe(422);
    expect(empty.json.details.causes[0].field).toBe('metadata.initializers.pending');
  });
});

describe('delete-collection', () => {
  it('deletes only what the selectors match and answers with the deleted list', async () => {
    const path = deployments('sweep');
    for (const [name, tier] of [['s1', 'web'], ['s2', 'web'], ['s3', 'db']]) {
      await http(server.url, 'POST', path, { body: deployment(name, { tier }, 'sweep') });
    }
    const response = await http(server.url, 'DELETE', `${path}?labelSelector=tier%3Dweb`, { body: { propagationPolicy: 'Background' } });
    expect(response.status).toBe(200);
    expect(response.json.kind).toBe('DeploymentList');
    expect(names(response)).toEqual(['s1', 's2']);
    expect(names(await list('', path))).toEqual(['s3']);
  });
});
