import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { Pool } from 'pg';
import { decodeEnveloped } from '../src/apiserver/codec/protobuf/envelope';
import { loadSettings } from '../src/config/settings';
import { applyMigrations, readMigrations } from '../src/storage/database/migrator';
import { useTestServer } from './support/api';
import { crontabCrd } from './support/crontab-definition';
import { createNamespaces } from './support/namespaces';
import { PROTOBUF } from './support/protobuf';
import { createTestDatabase, dropTestDatabase, startTestServer } from './support/test-server';
import { http } from './support/http';
import { until } from './support/until';
import { WatchClient } from './support/watch-client';

const { call, server } = useTestServer();
const deployment: any = load(readFileSync(join(__dirname, 'fixtures', 'deployment.yaml'), 'utf8'));

const NAMESPACES = '/api/v1/namespaces';
const deployments = (ns: string) => `/apis/extensions/v1beta1/namespaces/${ns}/deployments`;
const roles = (ns: string) => `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`;
const crontabs = (ns: string) => `/apis/stable.example.com/v1/namespaces/${ns}/crontabs`;
const namespace = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name }, ...extra });
const named = (name: string) => ({ ...deployment, metadata: { ...deployment.metadata, name } });

async function gone(path: string): Promise<void> {
  await until(async () => (await call('GET', path)).status === 404, 15_000);
}

describe('Namespace objects', () => {
  it('are made Active, held by the kubernetes finalizer and labelled with their name', async () => {
    const created = await call('POST', NAMESPACES, namespace('team-a', { spec: { finalizers: ['example.com/keep'] }, status: { phase: 'Terminating' } }));
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: { name: 'team-a', labels: { 'kubernetes.io/metadata.name': 'team-a' } },
      spec: { finalizers: ['example.com/keep', 'kubernetes'] },
      status: { phase: 'Active' },
    });
    expect(created.json.metadata.generation).toBeUndefined();
    const generated = await call('POST', NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { generateName: 'gen-' } });
    expect(generated.status).toBe(201);
    expect(generated.json.metadata.labels['kubernetes.io/metadata.name']).toBe(generated.json.metadata.name);
    const relabelled = await call('PATCH', `${NAMESPACES}/team-a`, { metadata: { labels: { 'kubernetes.io/metadata.name': 'other', team: 'a' } } }, { 'content-type': 'application/merge-patch+json' });
    expect(relabelled.json.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'team-a', team: 'a' });
  });

  it('keep spec.finalizers and status on a plain update, and check names and finalizers', async () => {
    const current = (await call('GET', `${NAMESPACES}/team-a`)).json;
    const put = await call('PUT', `${NAMESPACES}/team-a`, { ...current, spec: { finalizers: [] }, status: { phase: 'Terminating' } });
    expect(put.status).toBe(200);
    expect(put.json.spec.finalizers).toEqual(['example.com/keep', 'kubernetes']);
    expect(put.json.status.phase).toBe('Active');
    const badName = await call('POST', NAMESPACES, namespace('a.b'));
    expect(badName.status).toBe(422);
    const badFinalizer = await call('POST', NAMESPACES, namespace('bad-finalizer', { spec: { finalizers: ['custom'] } }));
    expect(badFinalizer.status).toBe(422);
    expect(badFinalizer.json.details.causes[0]).toMatchObject({ field: 'spec.finalizers[0]', message: 'Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified' });
  });

  it('are listed, selected by status.phase and metadata.name, and watched', async () => {
    const list = await call('GET', NAMESPACES);
    expect(list.json.kind).toBe('NamespaceList');
    const names = list.json.items.map((item: any) => item.metadata.name);
    expect(names).toEqual(expect.arrayContaining(['default', 'kube-system', 'kube-public', 'kube-node-lease', 'team-a']));
    const active = await call('GET', `${NAMESPACES}?fieldSelector=status.phase%3DActive,metadata.name%3Dteam-a`);
    expect(active.json.items.map((item: any) => item.metadata.name)).toEqual(['team-a']);
    expect((await call('GET', `${NAMESPACES}?fieldSelector=status.phase%3DTerminating`)).json.items).toEqual([]);
    const watch = await WatchClient.open(server().url, `${NAMESPACES}?watch=true&fieldSelector=metadata.name%3Dwatched`);
    try {
      await call('POST', NAMESPACES, namespace('watched'));
      const [event] = await watch.count(1);
      expect(event).toMatchObject({ type: 'ADDED', object: { kind: 'Namespace', metadata: { name: 'watched' } } });
    } finally {
      watch.close();
    }
  });

  it('print NAME STATUS AGE and write /status', async () => {
    const table = await call('GET', `${NAMESPACES}/team-a`, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.json.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Status', 'Age']);
    expect(table.json.rows[0].cells.slice(0, 2)).toEqual(['team-a', 'Active']);
    const status = await call('PATCH', `${NAMESPACES}/team-a/status`, { status: { conditions: [{ type: 'Example', status: 'True' }] } }, { 'content-type': 'application/merge-patch+json' });
    expect(status.status).toBe(200);
    expect(status.json.status).toEqual({ phase: 'Active', conditions: [{ type: 'Example', status: 'True' }] });
    const terminating = await call('PATCH', `${NAMESPACES}/team-a/status`, { status: { phase: 'Terminating' } }, { 'content-type': 'application/merge-patch+json' });
    expect(terminating.status).toBe(422);
    expect(terminating.json.message).toContain("status.Phase: Invalid value: \"Terminating\": may only be 'Active' if `deletionTimestamp` is empty");
  });
});

describe('Namespace objects on the wire and in SQL', () => {
  it('travel in protobuf, are applied server-side, and show in kube.namespaces', async () => {
    const pb = await call('GET', `${NAMESPACES}/team-a`, undefined, { accept: PROTOBUF });
    expect(pb.headers.get('content-type')).toBe(PROTOBUF);
    expect(decodeEnveloped(pb.bytes, { kind: 'Namespace', apiVersion: 'v1' })).toMatchObject({ metadata: { name: 'team-a' }, spec: { finalizers: ['example.com/keep', 'kubernetes'] }, status: { phase: 'Active' } });
    const apply = { 'content-type': 'application/apply-patch+yaml' };
    const applied = await call('PATCH', `${NAMESPACES}/applied?fieldManager=tester`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'applied', labels: { team: 'x' } } }, apply);
    expect(applied.status).toBe(201);
    expect(applied.json.metadata.labels).toEqual({ team: 'x', 'kubernetes.io/metadata.name': 'applied' });
    expect(applied.json.metadata.managedFields.map((entry: any) => [entry.manager, entry.operation])).toEqual([['tester', 'Apply']]);
    const [row] = await server().sql(`SELECT name, phase, spec_finalizers, conditions FROM kube.namespaces WHERE name = 'applied'`);
    expect(row).toEqual({ name: 'applied', phase: 'Active', spec_finalizers: ['kubernetes'], conditions: [] });
  });

  it('are made on upgrade for every namespace stored objects are in, and at start by instances starting together', async () => {
    const databaseUrl = await createTestDatabase();
    try {
      const pool = new Pool({ connectionString: databaseUrl });
      await applyMigrations(pool, readMigrations().filter((migration) => migration.name < '0015'));
      const old = { apiVersion: 'extensions/v1beta1', kind: 'Deployment', metadata: { name: 'old', namespace: 'legacy', uid: 'old-uid' } };
      await pool.query(`INSERT INTO objects (api_group, resource, body) VALUES ('extensions', 'deployments', $1)`, [old]);
      await pool.end();
      const servers = await Promise.all([startTestServer(databaseUrl), startTestServer(databaseUrl)]);
      try {
        const legacy = await http(servers[0].url, 'GET', `${NAMESPACES}/legacy`);
        expect(legacy.json).toMatchObject({ metadata: { name: 'legacy', labels: { 'kubernetes.io/metadata.name': 'legacy' } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
        expect(legacy.json.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
        const names = (await http(servers[1].url, 'GET', NAMESPACES)).json.items.map((item: any) => item.metadata.name);
        expect(names).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system', 'legacy']);
        expect((await http(servers[1].url, 'POST', deployments('legacy'), { body: named('new') })).status).toBe(201);
      } finally {
        await Promise.all(servers.map((s) => s.close()));
      }
    } finally {
      await dropTestDatabase(databaseUrl);
    }
  });
});

describe('NamespaceLifecycle admission', () => {
  it('refuses an object in a namespace that does not exist with a 404 for the namespace', async () => {
    const refused = await call('POST', deployments('nowhere'), named('web'));
    expect(refused.status).toBe(404);
    expect(refused.json).toMatchObject({ reason: 'NotFound', message: 'namespaces "nowhere" not found', details: { name: 'nowhere', kind: 'namespaces' } });
    const applied = await call('PATCH', `${deployments('nowhere')}/web?fieldManager=test`, named('web'), { 'content-type': 'application/apply-patch+yaml' });
    expect(applied.status).toBe(404);
    expect(applied.json.message).toBe('namespaces "nowhere" not found');
    expect((await call('GET', deployments('nowhere'))).status).toBe(200); // reads are not admitted
  });

  it('lets objects in once the namespace exists, created through any kind', async () => {
    expect((await call('POST', NAMESPACES, namespace('allowed'))).status).toBe(201);
    expect((await call('POST', deployments('allowed'), named('web'))).status).toBe(201);
    expect((await call('POST', roles('allowed'), { metadata: { name: 'reader' }, rules: [] })).status).toBe(201);
  });

  it('keeps default, kube-system and kube-public', async () => {
    for (const name of ['default', 'kube-system', 'kube-public']) {
      const refused = await call('DELETE', `${NAMESPACES}/${name}`);
      expect(refused.status).toBe(403);
      expect(refused.json).toMatchObject({ reason: 'Forbidden', message: `namespaces "${name}" is forbidden: this namespace may not be deleted`, details: { name, kind: 'namespaces' } });
    }
    expect((await call('GET', `${NAMESPACES}/default`)).json.status.phase).toBe('Active');
  });
});

describe('deleting a namespace', () => {
  beforeAll(async () => {
    const crd = await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crontabCrd());
    expect(crd.status).toBe(201);
    await until(async () => (await call('GET', crontabs('default'))).status === 200);
  });

  it('marks it Terminating, deletes its content of every kind (watchers see each), then removes it', async () => {
    expect((await call('POST', NAMESPACES, namespace('doomed'))).status).toBe(201);
    expect((await call('POST', NAMESPACES, namespace('bystander'))).status).toBe(201);
    for (const ns of ['doomed', 'bystander']) {
      expect((await call('POST', deployments(ns), named('web'))).status).toBe(201);
      expect((await call('POST', roles(ns), { metadata: { name: 'reader' }, rules: [] })).status).toBe(201);
      expect((await call('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, { metadata: { name: 'rc' }, spec: { template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } })).status).toBe(201);
      expect((await call('POST', crontabs(ns), { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'job' }, spec: { cronSpec: '* * * * */5' } })).status).toBe(201);
    }
    const watch = await WatchClient.open(server().url, '/apis/extensions/v1beta1/watch/namespaces/doomed/deployments');
    const crWatch = await WatchClient.open(server().url, `${crontabs('doomed')}?watch=true`);
    try {
      await watch.count(1);
      await crWatch.count(1);
      const deleted = await call('DELETE', `${NAMESPACES}/doomed`);
      expect(deleted.status).toBe(200);
      expect(deleted.json).toMatchObject({ kind: 'Namespace', metadata: { name: 'doomed' }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Terminating' } });
      expect(deleted.json.metadata.deletionTimestamp).toBeDefined();
      await watch.until((events) => events.some((e) => e.type === 'DELETED' && e.object.metadata.name === 'web'));
      await crWatch.until((events) => events.some((e) => e.type === 'DELETED' && e.object.metadata.name === 'job'));
      await gone(`${NAMESPACES}/doomed`);
    } finally {
      watch.close();
      crWatch.close();
    }
    for (const path of [`${deployments('doomed')}/web`, `${roles('doomed')}/reader`, '/api/v1/namespaces/doomed/replicationcontrollers/rc', `${crontabs('doomed')}/job`]) {
      expect((await call('GET', path)).status).toBe(404);
    }
    for (const path of [`${deployments('bystander')}/web`, `${roles('bystander')}/reader`, '/api/v1/namespaces/bystander/replicationcontrollers/rc', `${crontabs('bystander')}/job`]) {
      expect((await call('GET', path)).status).toBe(200);
    }
  });

  it('refuses new content while it terminates, waits for finalizers with its conditions saying so, then finishes', async () => {
    expect((await call('POST', NAMESPACES, namespace('held'))).status).toBe(201);
    const kept = { ...named('kept'), metadata: { name: 'kept', finalizers: ['example.com/hold'] } };
    expect((await call('POST', deployments('held'), kept)).status).toBe(201);
    expect((await call('POST', deployments('held'), named('plain'))).status).toBe(201);
    expect((await call('DELETE', `${NAMESPACES}/held`)).status).toBe(200);

    const refused = await call('POST', deployments('held'), named('late'));
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({
      reason: 'Forbidden',
      message: 'deployments.extensions "late" is forbidden: unable to create new content in namespace held because it is being terminated',
      details: { name: 'late', group: 'extensions', kind: 'deployments', causes: [{ reason: 'NamespaceTerminating', message: 'namespace held is being terminated', field: 'metadata.namespace' }] },
    });

    let conditions: any[] = [];
    await until(async () => {
      conditions = (await call('GET', `${NAMESPACES}/held`)).json.status.conditions ?? [];
      return conditions.some((c) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True');
    }, 15_000);
    const byType = Object.fromEntries(conditions.map((c) => [c.type, c]));
    expect(conditions.map((c) => c.type)).toEqual([
      'NamespaceDeletionDiscoveryFailure',
      'NamespaceDeletionGroupVersionParsingFailure',
      'NamespaceDeletionContentFailure',
      'NamespaceContentRemaining',
      'NamespaceFinalizersRemaining',
    ]);
    expect(byType.NamespaceDeletionDiscoveryFailure).toMatchObject({ status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' });
    expect(byType.NamespaceDeletionContentFailure).toMatchObject({ status: 'False', reason: 'ContentDeleted' });
    expect(byType.NamespaceContentRemaining).toMatchObject({ status: 'True', reason: 'SomeResourcesRemain', message: 'Some resources are remaining: deployments.extensions has 1 resource instances' });
    expect(byType.NamespaceFinalizersRemaining).toMatchObject({ status: 'True', reason: 'SomeFinalizersRemain', message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances' });
    expect((await call('GET', `${deployments('held')}/plain`)).status).toBe(404);
    const waiting = (await call('GET', `${deployments('held')}/kept`)).json;
    expect(waiting.metadata.deletionTimestamp).toBeDefined();
    // a terminating namespace still takes updates: here the one that lets its last object go
    const released = await call('PATCH', `${deployments('held')}/kept`, { metadata: { finalizers: null } }, { 'content-type': 'application/merge-patch+json' });
    expect(released.status).toBe(200);
    await gone(`${NAMESPACES}/held`);
  });

  it('is done by one instance while another serves, and a namespace made again is new', async () => {
    const other = await startTestServer(server().databaseUrl);
    try {
      expect((await http(other.url, 'POST', NAMESPACES, { body: namespace('shared') })).status).toBe(201);
      expect((await call('POST', deployments('shared'), named('web'))).status).toBe(201);
      expect((await http(other.url, 'DELETE', `${NAMESPACES}/shared`)).status).toBe(200);
      await gone(`${NAMESPACES}/shared`);
      expect((await http(other.url, 'POST', NAMESPACES, { body: namespace('shared') })).status).toBe(201);
      const recreated = await call('GET', `${NAMESPACES}/shared`);
      expect(recreated.json.status.phase).toBe('Active');
      expect((await call('GET', deployments('shared'))).json.items).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describe('/finalize', () => {
  it('writes spec.finalizers alone, and removes a deleted namespace once they are empty', async () => {
    expect((await call('POST', NAMESPACES, namespace('finalized'))).status).toBe(201);
    const current = (await call('GET', `${NAMESPACES}/finalized`)).json;
    const put = await call('PUT', `${NAMESPACES}/finalized/finalize`, { ...current, spec: { finalizers: ['example.com/last'] }, status: { phase: 'Terminating' } });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ spec: { finalizers: ['example.com/last'] }, status: { phase: 'Active' } });
    expect((await call('PATCH', `${NAMESPACES}/finalized/finalize`, {}, { 'content-type': 'application/merge-patch+json' })).status).toBe(405);
    const deleted = await call('DELETE', `${NAMESPACES}/finalized`);
    expect(deleted.json.status.phase).toBe('Terminating');
    // without `kubernetes` the controller has nothing to do: the namespace waits for its own finalizer
    await new Promise((resolve) => setTimeout(resolve, 500));
    const waiting = (await call('GET', `${NAMESPACES}/finalized`)).json;
    expect(waiting.spec.finalizers).toEqual(['example.com/last']);
    const emptied = await call('PUT', `${NAMESPACES}/finalized/finalize`, { ...waiting, spec: { finalizers: [] } });
    expect(emptied.status).toBe(200);
    expect((await call('GET', `${NAMESPACES}/finalized`)).status).toBe(404);
  });
});

describe('with NamespaceLifecycle disabled', () => {
  it('namespaces are plain names again, and the system ones can be deleted', async () => {
    const plain = await startTestServer(undefined, { DISABLE_ADMISSION_PLUGINS: 'NamespaceLifecycle' });
    try {
      const created = await http(plain.url, 'POST', deployments('anywhere'), { body: named('web') });
      expect(created.status).toBe(201);
      expect((await http(plain.url, 'GET', `${NAMESPACES}/anywhere`)).status).toBe(404);
      const deleted = await http(plain.url, 'DELETE', `${NAMESPACES}/kube-public`);
      expect(deleted.status).toBe(200);
      expect(deleted.json.status.phase).toBe('Terminating');
    } finally {
      await plain.close();
    }
  });
});

describe('admission settings', () => {
  it('accepts NamespaceLifecycle only, and not both enabled and disabled', () => {
    expect(loadSettings({ ENABLE_ADMISSION_PLUGINS: 'NamespaceLifecycle' }).ENABLE_ADMISSION_PLUGINS).toBe('NamespaceLifecycle');
    expect(() => loadSettings({}, ['--disable-admission-plugins=AlwaysPullImages'])).toThrow(/DISABLE_ADMISSION_PLUGINS must be a comma list of NamespaceLifecycle/);
    expect(() => loadSettings({ ENABLE_ADMISSION_PLUGINS: 'NamespaceLifecycle' }, ['--disable-admission-plugins=NamespaceLifecycle'])).toThrow(
      /DISABLE_ADMISSION_PLUGINS and ENABLE_ADMISSION_PLUGINS name the same plugin/,
    );
  });
});

describe('RBAC on namespaces', () => {
  it('lets a Role in a namespace grant access to that namespace itself, as upstream', async () => {
    const work = mkdtempSync(join(tmpdir(), 'pgkube-ns-rbac-'));
    writeFileSync(join(work, 'tokens.csv'), 'nadia-token,nadia,1\n');
    const secure = await startTestServer(undefined, { SECURE_PORT: '0', CERT_DIR: join(work, 'certs'), TOKEN_AUTH_FILE: join(work, 'tokens.csv') });
    try {
      const ca = readFileSync(join(work, 'certs', 'apiserver.crt'), 'utf8');
      const asNadia = (path: string) => http(secure.secureUrl as string, 'GET', path, { headers: { authorization: 'Bearer nadia-token' }, tls: { ca } });
      await createNamespaces(secure.url, ['mine', 'theirs']);
      const rbac = '/apis/rbac.authorization.k8s.io/v1/namespaces/mine';
      const rule = { apiGroups: [''], resources: ['namespaces', 'namespaces/status'], verbs: ['get'] };
      expect((await http(secure.url, 'POST', `${rbac}/roles`, { body: { metadata: { name: 'see-ns' }, rules: [rule] } })).status).toBe(201);
      const binding = { metadata: { name: 'nadia' }, subjects: [{ kind: 'User', name: 'nadia' }], roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'see-ns' } };
      expect((await http(secure.url, 'POST', `${rbac}/rolebindings`, { body: binding })).status).toBe(201);
      await until(async () => (await asNadia(`${NAMESPACES}/mine`)).status === 200);
      expect((await asNadia(`${NAMESPACES}/mine/status`)).status).toBe(200);
      const refused = await asNadia(`${NAMESPACES}/theirs`);
      expect(refused.status).toBe(403);
      expect(refused.json.message).toBe('namespaces "theirs" is forbidden: User "nadia" cannot get resource "namespaces" in API group "" in the namespace "theirs"');
      expect((await asNadia(NAMESPACES)).status).toBe(403);
    } finally {
      await secure.close();
      rmSync(work, { recursive: true, force: true });
    }
  });
});
