import { http } from './support/http';
import { kubectl, KUBECTLS } from './support/kubectl';
import { LEASE_DURATION_MS, leadersOf, RETRY_PERIOD_MS, useInstances } from './support/controller-instances';
import { ServerProcess } from './support/server-process';
import { until } from './support/until';

jest.setTimeout(180_000);

const LEASES = ['pgkube-cluster', 'pgkube-deployment', 'pgkube-garbagecollector', 'pgkube-namespace'];
const LEASES_PATH = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases';

const call = (server: ServerProcess, method: string, path: string, body?: unknown) => http(server.url, method, path, { body });

const lease = async (server: ServerProcess, name: string) => (await call(server, 'GET', `${LEASES_PATH}/${name}`)).json;

/** An owner ConfigMap and a dependent of it in `default`; resolves with the dependent's path. */
async function ownerAndDependent(server: ServerProcess, name: string): Promise<{ owner: string; dependent: string }> {
  const owner = (await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: `${name}-owner` } })).json;
  const ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: owner.metadata.name, uid: owner.metadata.uid }];
  expect((await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: `${name}-dependent`, ownerReferences } })).status).toBe(201);
  return { owner: `/api/v1/namespaces/default/configmaps/${name}-owner`, dependent: `/api/v1/namespaces/default/configmaps/${name}-dependent` };
}

describe('the controller manager over three instances', () => {
  const cluster = useInstances(3);

  it('holds each controller\'s Lease in kube-system by exactly one instance, which alone runs the controller', async () => {
    for (const name of LEASES) {
      await until(async () => (await leadersOf(cluster.all, name)).length === 1, 10_000, 200);
      const { spec } = await lease(cluster.all[0], name);
      expect(spec.holderIdentity).toMatch(/^[^_]+_[0-9a-f-]{36}$/);
      expect(spec.leaseDurationSeconds).toBe(3);
      expect(spec.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      expect(spec.acquireTime).toMatch(/\.\d{6}Z$/);
    }
    const listed = await kubectl(KUBECTLS[0], cluster.all[1].url, ['get', 'lease', '-n', 'kube-system']);
    expect(listed.code).toBe(0);
    for (const name of LEASES) expect(listed.stdout).toMatch(new RegExp(`^${name}\\s+\\S+_[0-9a-f-]{36}\\s`, 'm'));
  });

  it('moves each controller to another instance within the lease duration when its leader is killed, and the controllers work on', async () => {
    const [leader] = await leadersOf(cluster.all, 'pgkube-garbagecollector');
    const before = Object.fromEntries(await Promise.all(LEASES.map(async (name) => [name, (await lease(leader, name)).spec])));
    const led = await Promise.all(LEASES.map(async (name) => (await leadersOf([leader], name)).length === 1));
    await leader.stop('SIGKILL');
    const killedAt = Date.now();
    cluster.all = cluster.all.filter((instance) => instance !== leader);

    for (const [i, name] of LEASES.entries()) {
      if (!led[i]) continue;
      await until(async () => (await leadersOf(cluster.all, name)).length === 1, LEASE_DURATION_MS + 5000, 100);
      const { spec } = await lease(cluster.all[0], name);
      expect(spec.holderIdentity).not.toBe(before[name].holderIdentity);
      expect(spec.leaseTransitions).toBe((before[name].leaseTransitions ?? 0) + 1);
    }
    // the Lease is taken once it has not been renewed for its duration (counted from the last renewal seen), at the
    // next try of a candidate: within 2.2 retry periods (client-go's jitter)
    expect(Date.now() - killedAt).toBeLessThan(LEASE_DURATION_MS + 2.2 * RETRY_PERIOD_MS + 500);
    for (const name of LEASES) expect(await leadersOf(cluster.all, name)).toHaveLength(1);

    const [server] = cluster.all;
    const { owner, dependent } = await ownerAndDependent(server, 'after-takeover');
    expect((await call(server, 'DELETE', owner)).status).toBe(200);
    await until(async () => (await call(server, 'GET', dependent)).status === 404, 10_000, 100);

    expect((await call(server, 'POST', '/api/v1/namespaces', { metadata: { name: 'taken-over' } })).status).toBe(201);
    expect((await call(server, 'POST', '/api/v1/namespaces/taken-over/configmaps', { metadata: { name: 'inside' } })).status).toBe(201);
    expect((await call(server, 'DELETE', '/api/v1/namespaces/taken-over')).status).toBe(200);
    await until(async () => (await call(server, 'GET', '/api/v1/namespaces/taken-over')).status === 404, 15_000, 100);
  });

  it('gives the Leases up when an instance stops gracefully, so that another takes them at once', async () => {
    const [leader] = await leadersOf(cluster.all, 'pgkube-namespace');
    await leader.stop('SIGTERM');
    cluster.all = cluster.all.filter((instance) => instance !== leader);
    const stoppedAt = Date.now();
    await until(async () => (await leadersOf(cluster.all, 'pgkube-namespace')).length === 1, LEASE_DURATION_MS, 100);
    expect(Date.now() - stoppedAt).toBeLessThan(LEASE_DURATION_MS);
  });
});

describe('--controllers=*,-garbagecollector', () => {
  const single = useInstances(1, ['--controllers=*,-garbagecollector']);

  it('leaves the garbage collector off and runs the namespace controller', async () => {
    const [server] = single.all;
    expect((await call(server, 'GET', `${LEASES_PATH}/pgkube-garbagecollector`)).status).toBe(404);
    expect((await lease(server, 'pgkube-namespace')).spec.holderIdentity).toBeTruthy();
    const { owner, dependent } = await ownerAndDependent(server, 'no-gc');
    expect((await call(server, 'DELETE', owner)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await call(server, 'GET', dependent)).status).toBe(200);
  });
});
