import { http } from './support/http';
import { KUBECTLS, kubectl } from './support/kubectl';
import { createNamespaces } from './support/namespaces';
import { createTestDatabase, dropTestDatabase, startTestServer, TestServer, WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';
import { WatchClient } from './support/watch-client';

const base = '/apis/extensions/v1beta1';
const deployments = (ns: string) => `${base}/namespaces/${ns}/deployments`;
const replicasets = (ns: string) => `${base}/namespaces/${ns}/replicasets`;
const template = { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };

let server: TestServer;
beforeAll(async () => {
  // the objects, versions and events of the tests' own writes are compared exactly: no controller writes besides
  server = await startTestServer(undefined, WITHOUT_DEPLOYMENT_CONTROLLER);
  const cascades = KUBECTLS.flatMap((client) => ['orphan', 'background', 'foreground'].map((cascade) => `cascade-${cascade}-${client.tag}`));
  await createNamespaces(server.url, ['default-orphan', 'background', 'foreground', 'explicit', 'held', ...cascades]);
});
afterAll(() => server.close());

const get = (path: string) => http(server.url, 'GET', path);

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const gone = (path: string) => waitFor(`${path} to go`, async () => ((await get(path)).status === 404 ? true : undefined));

/** A Deployment and a ReplicaSet it owns (as the deployment controller would create it). */
async function ownerAndDependent(ns: string, block = true, dependentFinalizers?: string[]) {
  const owner = await http(server.url, 'POST', deployments(ns), { body: { metadata: { name: 'web' }, spec: { template } } });
  expect(owner.status).toBe(201);
  const reference = {
    apiVersion: 'extensions/v1beta1',
    kind: 'Deployment',
    name: 'web',
    uid: owner.json.metadata.uid,
    controller: true,
    blockOwnerDeletion: block,
  };
  const dependent = await http(server.url, 'POST', replicasets(ns), {
    body: { metadata: { name: 'web-1', ownerReferences: [reference], finalizers: dependentFinalizers }, spec: { template } },
  });
  expect(dependent.status).toBe(201);
  return { owner: owner.json, dependent: dependent.json };
}

describe('propagation policies', () => {
  it('by default orphans the dependents of a Deployment: the owner is marked, then removed, its dependent kept', async () => {
    const ns = 'default-orphan';
    await ownerAndDependent(ns);
    const watch = await WatchClient.open(server.url, `${deployments(ns)}?watch=true`);
    const response = await http(server.url, 'DELETE', `${deployments(ns)}/web`);
    expect(response.status).toBe(200);
    expect(response.json.kind).toBe('Deployment');
    expect(response.json.metadata).toMatchObject({ finalizers: ['orphan'], deletionGracePeriodSeconds: 0, generation: 2 });
    expect(response.json.metadata.deletionTimestamp).toMatch(/Z$/);
    await gone(`${deployments(ns)}/web`);
    const dependent = await get(`${replicasets(ns)}/web-1`);
    expect(dependent.status).toBe(200);
    expect(dependent.json.metadata.ownerReferences).toBeUndefined();
    // the collector's removal of the last finalizer removes the object: no MODIFIED in between
    await watch.count(3);
    expect(watch.summary()).toEqual(['ADDED web', 'MODIFIED web', 'DELETED web']);
    watch.close();
  });

  it('Background removes the owner at once and then its dependents', async () => {
    const ns = 'background';
    const { owner } = await ownerAndDependent(ns);
    const response = await http(server.url, 'DELETE', `${deployments(ns)}/web`, { body: { propagationPolicy: 'Background' } });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'web', group: 'extensions', kind: 'deployments', uid: owner.metadata.uid },
    });
    expect((await get(`${deployments(ns)}/web`)).status).toBe(404);
    await gone(`${replicasets(ns)}/web-1`);
  });

  it('Foreground keeps the owner until its blocking dependents are gone', async () => {
    const ns = 'foreground';
    await ownerAndDependent(ns, true, ['example.com/hold']);
    const response = await http(server.url, 'DELETE', `${deployments(ns)}/web`, { body: { propagationPolicy: 'Foreground' } });
    expect(response.status).toBe(200);
    expect(response.json.metadata.finalizers).toEqual(['foregroundDeletion']);
    const marked = await waitFor('the dependent to be marked', async () => {
      const rs = (await get(`${replicasets(ns)}/web-1`)).json;
      return rs.metadata.deletionTimestamp ? rs : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await get(`${deployments(ns)}/web`)).status).toBe(200);
    marked.metadata.finalizers = [];
    expect((await http(server.url, 'PUT', `${replicasets(ns)}/web-1`, { body: marked })).status).toBe(200);
    await gone(`${replicasets(ns)}/web-1`);
    await gone(`${deployments(ns)}/web`);
  });

  it('Orphan and orphanDependents=true keep dependents; orphanDependents=false answers 202 while finalizers remain', async () => {
    const ns = 'explicit';
    await ownerAndDependent(ns);
    const orphaned = await http(server.url, 'DELETE', `${deployments(ns)}/web?propagationPolicy=Orphan`);
    expect(orphaned.json.metadata.finalizers).toEqual(['orphan']);
    await gone(`${deployments(ns)}/web`);
    expect((await get(`${replicasets(ns)}/web-1`)).json.metadata.ownerReferences).toBeUndefined();

    const held = await http(server.url, 'POST', deployments(ns), {
      body: { metadata: { name: 'held', finalizers: ['example.com/hold'] }, spec: { template } },
    });
    expect(held.status).toBe(201);
    const accepted = await http(server.url, 'DELETE', `${deployments(ns)}/held`, { body: { orphanDependents: false } });
    expect(accepted.status).toBe(202);
    expect(accepted.json.metadata.finalizers).toEqual(['example.com/hold']);
  });
});

describe('finalizers', () => {
  it('keeps an object with a finalizer until an update removes it, and answers that update with the object', async () => {
    const ns = 'held';
    const created = await http(server.url, 'POST', `${base}/namespaces/${ns}/ingresses`, {
      body: { metadata: { name: 'ing', finalizers: ['example.com/hold'] }, spec: { backend: { serviceName: 's', servicePort: 80 } } },
    });
    expect(created.status).toBe(201);
    const path = `${base}/namespaces/${ns}/ingresses/ing`;
    const watch = await WatchClient.open(server.url, `${base}/namespaces/${ns}/ingresses?watch=true`);
    const marked = await http(server.url, 'DELETE', path);
    expect(marked.status).toBe(200);
    expect(marked.json.metadata.deletionTimestamp).toBeDefined();
    expect((await get(path)).status).toBe(200);

    const again = await http(server.url, 'DELETE', path);
    expect(again.json.metadata.deletionTimestamp).toBe(marked.json.metadata.deletionTimestamp);

    const sameName = { metadata: { name: 'ing' }, spec: { backend: { serviceName: 's', servicePort: 80 } } };
    const conflict = await http(server.url, 'POST', `${base}/namespaces/${ns}/ingresses`, { body: sameName });
    expect(conflict.status).toBe(409);
    expect(conflict.json.message).toMatch(/^object is being deleted: ingresses.extensions "ing" already exists$/);

    const adding = structuredClone(marked.json);
    adding.metadata.finalizers = ['example.com/hold', 'example.com/late'];
    const refused = await http(server.url, 'PUT', path, { body: adding });
    expect(refused.status).toBe(422);
    expect(refused.json.details.causes[0].field).toBe('metadata.finalizers');

    const released = structuredClone(marked.json);
    released.metadata.finalizers = [];
    const removed = await http(server.url, 'PUT', path, { body: released });
    expect(removed.status).toBe(200);
    expect(removed.json.metadata.name).toBe('ing');
    expect((await get(path)).status).toBe(404);
    await watch.count(3);
    expect(watch.summary()).toEqual(['ADDED ing', 'MODIFIED ing', 'DELETED ing']);
    watch.close();
  });

  it('refuses both orphanDependents and propagationPolicy, an unknown policy and a negative grace period', async () => {
    const path = `${deployments('x')}/none`;
    for (const body of [{ orphanDependents: true, propagationPolicy: 'Orphan' }, { propagationPolicy: 'Sometimes' }, { gracePeriodSeconds: -1 }]) {
      const response = await http(server.url, 'DELETE', path, { body });
      expect(response.status).toBe(422);
      expect(response.json.reason).toBe('Invalid');
    }
  });
});

describe('a restart in the middle of a foreground deletion', () => {
  it('is finished by the next server over the same database', async () => {
    const databaseUrl = await createTestDatabase();
    let first: TestServer | undefined = await startTestServer(databaseUrl);
    try {
      const ns = 'restart';
      await createNamespaces(first.url, [ns]);
      const owner = await http(first.url, 'POST', deployments(ns), { body: { metadata: { name: 'web' }, spec: { template } } });
      const reference = { apiVersion: 'extensions/v1beta1', kind: 'Deployment', name: 'web', uid: owner.json.metadata.uid, blockOwnerDeletion: true };
      const rsBody = { metadata: { name: 'web-1', ownerReferences: [reference], finalizers: ['example.com/hold'] }, spec: { template } };
      expect((await http(first.url, 'POST', replicasets(ns), { body: rsBody })).status).toBe(201);
      await http(first.url, 'DELETE', `${deployments(ns)}/web`, { body: { propagationPolicy: 'Foreground' } });
      const url = first.url;
      await waitFor('the dependent to be marked', async () =>
        (await http(url, 'GET', `${replicasets(ns)}/web-1`)).json.metadata.deletionTimestamp ? true : undefined,
      );
      await first.close();
      first = undefined;

      const second = await startTestServer(databaseUrl);
      try {
        const rs = (await http(second.url, 'GET', `${replicasets(ns)}/web-1`)).json;
        rs.metadata.finalizers = [];
        expect((await http(second.url, 'PUT', `${replicasets(ns)}/web-1`, { body: rs })).status).toBe(200);
        await waitFor('the owner to go', async () => ((await http(second.url, 'GET', `${deployments(ns)}/web`)).status === 404 ? true : undefined));
      } finally {
        await second.close();
      }
    } finally {
      await first?.close();
      await dropTestDatabase(databaseUrl);
    }
  });
});

describe.each(KUBECTLS)('kubectl ($tag) delete --cascade', (client) => {
  it.each(['orphan', 'background', 'foreground'])('--cascade=%s behaves as against a real cluster', async (cascade) => {
    const ns = `cascade-${cascade}-${client.tag}`;
    await ownerAndDependent(ns, true);
    const result = await kubectl(client, server.url, ['-n', ns, 'delete', 'deployment', 'web', `--cascade=${cascade}`, '--timeout=20s']);
    expect(result.stdout).toContain('deployment.extensions "web" deleted');
    await gone(`${deployments(ns)}/web`);
    const dependent = await get(`${replicasets(ns)}/web-1`);
    if (cascade === 'orphan') {
      expect(dependent.status).toBe(200);
      expect(dependent.json.metadata.ownerReferences).toBeUndefined();
    } else {
      await gone(`${replicasets(ns)}/web-1`);
    }
  });
});
