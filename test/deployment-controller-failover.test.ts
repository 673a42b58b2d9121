import { LEASE_DURATION_MS, leadersOf, RETRY_PERIOD_MS, useInstances } from './support/controller-instances';
import { http } from './support/http';
import { ServerProcess } from './support/server-process';
import { until } from './support/until';

jest.setTimeout(180_000);

const LEASE = 'pgkube-deployment';
const APPS = '/apis/apps/v1/namespaces/default';

const call = (server: ServerProcess, method: string, path: string, body?: unknown, headers?: Record<string, string>) => http(server.url, method, path, { body, headers });

const replicaSets = async (server: ServerProcess) => (await call(server, 'GET', `${APPS}/replicasets`)).json.items;

describe('the deployment controller over three instances', () => {
  const cluster = useInstances(3);

  it('moves to another instance within the lease duration when its leader is killed, and makes no ReplicaSet twice', async () => {
    await until(async () => (await leadersOf(cluster.all, LEASE)).length === 1, 10_000, 200);
    const [leader] = await leadersOf(cluster.all, LEASE);
    const survivor = cluster.all.find((instance) => instance !== leader) as ServerProcess;
    const deployment = {
      metadata: { name: 'web' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:1' }] } },
      },
    };
    const created = await call(survivor, 'POST', `${APPS}/deployments`, deployment);
    expect(created.status).toBe(201);
    await until(async () => (await replicaSets(survivor)).length === 1, 10_000, 100);
    const [first] = await replicaSets(survivor);

    await leader.stop('SIGKILL');
    const killedAt = Date.now();
    cluster.all = cluster.all.filter((instance) => instance !== leader);
    // the template changes while no instance leads: the next leader rolls it out
    const patch = { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:2' }] } } } };
    expect((await call(survivor, 'PATCH', `${APPS}/deployments/web`, patch, { 'content-type': 'application/strategic-merge-patch+json' })).status).toBe(200);
    await until(async () => (await leadersOf(cluster.all, LEASE)).length === 1, LEASE_DURATION_MS + 5000, 100);
    expect(Date.now() - killedAt).toBeLessThan(LEASE_DURATION_MS + 2.2 * RETRY_PERIOD_MS + 500);

    await until(async () => (await replicaSets(survivor)).length === 2, 10_000, 100);
    const sets = await replicaSets(survivor);
    expect(sets.find((rs: any) => rs.metadata.name === first.metadata.name).metadata.uid).toBe(first.metadata.uid);
    expect(sets.map((rs: any) => rs.metadata.annotations['deployment.kubernetes.io/revision']).sort()).toEqual(['1', '2']);

    // every ReplicaSet was added once since the Deployment was made
    const since = created.json.metadata.resourceVersion;
    const watched = await call(survivor, 'GET', `${APPS}/replicasets?watch=1&resourceVersion=${since}&timeoutSeconds=2`);
    const added = watched.text.trim().split('\n').map((line) => JSON.parse(line)).filter((event) => event.type === 'ADDED');
    expect(added.map((event) => event.object.metadata.name).sort()).toEqual(sets.map((rs: any) => rs.metadata.name).sort());
  });
});
