import { useTestServer } from './support/api';
import { until } from './support/until';

jest.setTimeout(60_000);

const NS = 'deploy-ctl';
const { call } = useTestServer([NS]);

const APPS = `/apis/apps/v1/namespaces/${NS}`;
const EXTENSIONS = `/apis/extensions/v1beta1/namespaces/${NS}`;
const APPS_V1BETA1 = `/apis/apps/v1beta1/namespaces/${NS}`;

function manifest(name: string, spec: Record<string, unknown> = {}, apiVersion = 'apps/v1') {
  return {
    apiVersion,
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'nginx:1' }] } },
      ...spec,
    },
  };
}

const get = async (path: string) => (await call('GET', path)).json;

/** The ReplicaSets the Deployment controls, oldest revision first. */
async function replicaSetsOf(name: string): Promise<any[]> {
  const deployment = await get(`${APPS}/deployments/${name}`);
  const { items } = await get(`${APPS}/replicasets`);
  return items
    .filter((rs: any) => rs.metadata.ownerReferences?.some((ref: any) => ref.uid === deployment.metadata.uid && ref.controller))
    .sort((a: any, b: any) => Number(a.metadata.annotations['deployment.kubernetes.io/revision']) - Number(b.metadata.annotations['deployment.kubernetes.io/revision']));
}

async function eventsOf(name: string): Promise<any[]> {
  const { items } = await get(`/api/v1/namespaces/${NS}/events?fieldSelector=involvedObject.name=${name}`);
  return items;
}

async function setImage(path: string, image: string): Promise<void> {
  const response = await call('PATCH', path, { spec: { template: { spec: { containers: [{ name: 'main', image }] } } } }, { 'content-type': 'application/strategic-merge-patch+json' });
  expect(response.status).toBe(200);
}

/**
 * Stands in for the ReplicaSet controller of a cluster whose pods all start at once: every ReplicaSet of the
 * namespace reports its spec's replicas as ready and available, at its generation.
 */
async function reportReplicaSets(): Promise<void> {
  const { items } = await get(`${APPS}/replicasets`);
  for (const rs of items) {
    const replicas = rs.spec.replicas;
    const { status = {} } = rs;
    if (status.replicas === replicas && status.availableReplicas === replicas && status.observedGeneration === rs.metadata.generation) continue;
    const reported = { ...rs, status: { replicas, fullyLabeledReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas, observedGeneration: rs.metadata.generation } };
    await call('PUT', `${APPS}/replicasets/${rs.metadata.name}/status`, reported);
  }
}

/** Plays the ReplicaSet controller until the Deployment reports its rollout complete. */
async function completeRollout(name: string): Promise<any> {
  let deployment: any;
  await until(
    async () => {
      await reportReplicaSets();
      deployment = await get(`${APPS}/deployments/${name}`);
      const { status, spec } = deployment;
      return (
        status.observedGeneration === deployment.metadata.generation &&
        status.updatedReplicas === spec.replicas &&
        status.replicas === spec.replicas &&
        status.availableReplicas === spec.replicas
      );
    },
    20_000,
    100,
  );
  return deployment;
}

const condition = (deployment: any, type: string) => deployment.status?.conditions?.find((c: any) => c.type === type);

describe('the deployment controller', () => {
  it('makes a ReplicaSet named by the pod-template-hash, owned by the Deployment, with the revision annotations, and reports status', async () => {
    expect((await call('POST', `${APPS}/deployments`, manifest('first'))).status).toBe(201);
    await until(async () => (await replicaSetsOf('first')).length === 1);
    const [rs] = await replicaSetsOf('first');
    const deployment = await get(`${APPS}/deployments/first`);
    const hash = rs.metadata.labels['pod-template-hash'];
    expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    expect(rs.metadata.name).toBe(`first-${hash}`);
    expect(rs.metadata.labels).toEqual({ app: 'first', 'pod-template-hash': hash });
    expect(rs.spec.selector).toEqual({ matchLabels: { app: 'first', 'pod-template-hash': hash } });
    expect(rs.spec.template.metadata.labels).toEqual({ app: 'first', 'pod-template-hash': hash });
    expect(rs.spec.template.spec.containers[0].image).toBe('nginx:1');
    expect(rs.spec.replicas).toBe(3);
    expect(rs.metadata.ownerReferences).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'first', uid: deployment.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
    // 25% of 3: a surge of 1 (rounded up), no unavailability (rounded down)
    expect(rs.metadata.annotations).toEqual({
      'deployment.kubernetes.io/revision': '1',
      'deployment.kubernetes.io/desired-replicas': '3',
      'deployment.kubernetes.io/max-replicas': '4',
    });
    await until(async () => (await get(`${APPS}/deployments/first`)).status?.observedGeneration === 1);
    const observed = await get(`${APPS}/deployments/first`);
    expect(observed.metadata.annotations['deployment.kubernetes.io/revision']).toBe('1');
    expect(observed.metadata.generation).toBe(1);
    expect(observed.status.unavailableReplicas).toBe(3);
    expect(observed.status.replicas).toBeUndefined(); // no pods: the ReplicaSet reports none
    expect(condition(observed, 'Available')).toMatchObject({ status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' });
    // nothing has progressed since: the condition stays as the ReplicaSet's creation set it
    expect(condition(observed, 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetCreated', message: `Created new replica set "${rs.metadata.name}"` });
    const events = await eventsOf('first');
    expect(events.map((e) => [e.type, e.reason, e.message, e.source.component, e.involvedObject.kind])).toContainEqual([
      'Normal',
      'ScalingReplicaSet',
      `Scaled up replica set ${rs.metadata.name} from 0 to 3`,
      'deployment-controller',
      'Deployment',
    ]);
  });

  it('rolls a new template out by maxSurge and maxUnavailable from what the ReplicaSets report, then reports it complete', async () => {
    expect((await call('POST', `${APPS}/deployments`, manifest('rolling'))).status).toBe(201);
    await completeRollout('rolling');
    await setImage(`${APPS}/deployments/rolling`, 'nginx:2');
    await until(async () => (await replicaSetsOf('rolling')).length === 2);
    let [old, next] = await replicaSetsOf('rolling');
    // a surge of one: the new ReplicaSet gets 1 while the old keeps its 3, all available
    expect([old.spec.replicas, next.spec.replicas]).toEqual([3, 1]);
    expect(next.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2');
    const deployment = await completeRollout('rolling');
    [old, next] = await replicaSetsOf('rolling');
    expect([old.spec.replicas, next.spec.replicas]).toEqual([0, 3]);
    expect(deployment.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2');
    await until(async () => condition(await get(`${APPS}/deployments/rolling`), 'Progressing')?.reason === 'NewReplicaSetAvailable');
    const done = await get(`${APPS}/deployments/rolling`);
    expect(condition(done, 'Progressing')).toMatchObject({ status: 'True', message: `ReplicaSet "${next.metadata.name}" has successfully progressed.` });
    expect(condition(done, 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable' });
    expect(done.status).toMatchObject({ replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 });
    const messages = (await eventsOf('rolling')).map((e) => e.message);
    expect(messages).toContain(`Scaled up replica set ${next.metadata.name} from 0 to 1`);
    expect(messages).toContain(`Scaled down replica set ${old.metadata.name} from 1 to 0`);
  });

  it('scales the old ReplicaSets to 0 first with Recreate, and makes the new one once they report no replicas', async () => {
    expect((await call('POST', `${APPS}/deployments`, manifest('recreate', { replicas: 2, strategy: { type: 'Recreate' } }))).status).toBe(201);
    await completeRollout('recreate');
    await setImage(`${APPS}/deployments/recreate`, 'nginx:2');
    await until(async () => (await replicaSetsOf('recreate'))[0].spec.replicas === 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await replicaSetsOf('recreate')).toHaveLength(1); // the old one still reports its 2 replicas
    const deployment = await completeRollout('recreate');
    const [old, next] = await replicaSetsOf('recreate');
    expect([old.spec.replicas, next.spec.replicas]).toEqual([0, 2]);
    expect(deployment.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2');
  });

  it('holds a paused Deployment\'s template back but scales it, and rolls out on resume', async () => {
    expect((await call('POST', `${APPS}/deployments`, manifest('paused', { replicas: 1 }))).status).toBe(201);
    await completeRollout('paused');
    expect((await call('PATCH', `${APPS}/deployments/paused`, { spec: { paused: true } }, { 'content-type': 'application/merge-patch+json' })).status).toBe(200);
    await until(async () => condition(await get(`${APPS}/deployments/paused`), 'Progressing')?.reason === 'DeploymentPaused');
    expect(condition(await get(`${APPS}/deployments/paused`), 'Progressing')).toMatchObject({ status: 'Unknown', message: 'Deployment is paused' });
    await setImage(`${APPS}/deployments/paused`, 'nginx:2');
    expect((await call('PATCH', `${APPS}/deployments/paused`, { spec: { replicas: 2 } }, { 'content-type': 'application/merge-patch+json' })).status).toBe(200);
    await until(async () => (await replicaSetsOf('paused'))[0].spec.replicas === 2);
    expect(await replicaSetsOf('paused')).toHaveLength(1);
    expect((await call('PATCH', `${APPS}/deployments/paused`, { spec: { paused: false } }, { 'content-type': 'application/merge-patch+json' })).status).toBe(200);
    await until(async () => (await replicaSetsOf('paused')).length === 2);
    const [, next] = await replicaSetsOf('paused');
    expect(next.spec.template.spec.containers[0].image).toBe('nginx:2');
    await completeRollout('paused');
  });

  it('deletes the oldest ReplicaSets past revisionHistoryLimit once they are scaled to 0', async () => {
    expect((await call('POST', `${APPS}/deployments`, manifest('history', { replicas: 1, revisionHistoryLimit: 1 }))).status).toBe(201);
    await completeRollout('history');
    for (const image of ['nginx:2', 'nginx:3']) {
      await setImage(`${APPS}/deployments/history`, image);
      await completeRollout('history');
    }
    await until(async () => (await replicaSetsOf('history')).length === 2);
    const sets = await replicaSetsOf('history');
    expect(sets.map((rs) => rs.metadata.annotations['deployment.kubernetes.io/revision'])).toEqual(['2', '3']);
    expect(sets.map((rs) => rs.spec.template.spec.containers[0].image)).toEqual(['nginx:2', 'nginx:3']);
  });

  it('reports a rollout without progress past progressDeadlineSeconds as ProgressDeadlineExceeded', async () => {
    expect((await call('POST', `${APPS}/deployments`, manifest('stuck', { progressDeadlineSeconds: 1 }))).status).toBe(201);
    await until(async () => condition(await get(`${APPS}/deployments/stuck`), 'Progressing')?.reason === 'ProgressDeadlineExceeded', 10_000, 100);
    const deployment = await get(`${APPS}/deployments/stuck`);
    const [rs] = await replicaSetsOf('stuck');
    expect(condition(deployment, 'Progressing')).toMatchObject({ status: 'False', message: `ReplicaSet "${rs.metadata.name}" has timed out progressing.` });
  });

  it('adopts an orphan ReplicaSet its selector selects and whose template is its own', async () => {
    const template = manifest('adopter').spec.template;
    const orphan = { metadata: { name: 'orphan', labels: { app: 'adopter' } }, spec: { replicas: 3, selector: { matchLabels: { app: 'adopter' } }, template } };
    expect((await call('POST', `${APPS}/replicasets`, orphan)).status).toBe(201);
    expect((await call('POST', `${APPS}/deployments`, manifest('adopter'))).status).toBe(201);
    await until(async () => (await replicaSetsOf('adopter')).length === 1);
    const [adopted] = await replicaSetsOf('adopter');
    expect(adopted.metadata.name).toBe('orphan');
    expect(adopted.metadata.annotations['deployment.kubernetes.io/revision']).toBe('1');
  });

  describe.each([
    ['extensions/v1beta1', EXTENSIONS],
    ['apps/v1beta1', APPS_V1BETA1],
  ])('the rollback subresource of %s', (apiVersion, base) => {
    const name = `back-${apiVersion.replace(/\W/g, '')}`;

    it('restores the template of the revision asked for, clears rollbackTo and records a DeploymentRollback event', async () => {
      expect((await call('POST', `${base}/deployments`, manifest(name, {}, apiVersion))).status).toBe(201);
      await until(async () => (await replicaSetsOf(name)).length === 1);
      for (const [i, image] of ['nginx:2', 'nginx:3'].entries()) {
        await setImage(`${base}/deployments/${name}`, image);
        await until(async () => (await replicaSetsOf(name)).length === i + 2);
      }
      const rollback = { apiVersion, kind: 'DeploymentRollback', name, rollbackTo: { revision: 1 } };
      expect((await call('POST', `${base}/deployments/${name}/rollback`, rollback)).status).toBe(201);
      await until(async () => (await get(`${base}/deployments/${name}`)).spec.rollbackTo === undefined);
      const deployment = await get(`${base}/deployments/${name}`);
      expect(deployment.spec.template.spec.containers[0].image).toBe('nginx:1');
      expect(deployment.spec.template.metadata.labels).toEqual({ app: name });
      await until(async () => (await replicaSetsOf(name)).at(-1).spec.template.spec.containers[0].image === 'nginx:1');
      const sets = await replicaSetsOf(name);
      expect(sets).toHaveLength(3); // the first ReplicaSet is the new one again, with the next revision
      expect(sets.at(-1).metadata.annotations).toMatchObject({ 'deployment.kubernetes.io/revision': '4', 'deployment.kubernetes.io/revision-history': '1' });
      const events = await eventsOf(name);
      expect(events.map((e) => [e.type, e.reason, e.message])).toContainEqual(['Normal', 'DeploymentRollback', `Rolled back deployment "${name}" to revision 1`]);
    });

    it('rolls back to the revision before the newest for revision 0, and gives up on a revision that is not there', async () => {
      expect((await call('POST', `${base}/deployments/${name}/rollback`, { apiVersion, kind: 'DeploymentRollback', name, rollbackTo: {} })).status).toBe(201);
      await until(async () => (await get(`${base}/deployments/${name}`)).spec.rollbackTo === undefined);
      expect((await get(`${base}/deployments/${name}`)).spec.template.spec.containers[0].image).toBe('nginx:3');
      await until(async () => (await get(`${base}/deployments/${name}`)).metadata.annotations['deployment.kubernetes.io/revision'] === '5');

      expect((await call('POST', `${base}/deployments/${name}/rollback`, { apiVersion, kind: 'DeploymentRollback', name, rollbackTo: { revision: 42 } })).status).toBe(201);
      await until(async () => (await get(`${base}/deployments/${name}`)).spec.rollbackTo === undefined);
      expect((await get(`${base}/deployments/${name}`)).spec.template.spec.containers[0].image).toBe('nginx:3');
      const events = await eventsOf(name);
      expect(events.map((e) => [e.type, e.reason, e.message])).toContainEqual(['Warning', 'DeploymentRollbackRevisionNotFound', 'Unable to find the revision to rollback to.']);
    });
  });
});
