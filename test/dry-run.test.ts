import { useTestServer } from './support/api';
import { dbState } from './support/db-state';
import { HttpResult } from './support/http';
import { collectionPath, itemPath, kindNamed } from './support/kinds';
import { expectFailure } from './support/status';
import { WatchClient } from './support/watch-client';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

const deployment = kindNamed('Deployment');
const cluster = kindNamed('Cluster');
const NS = 'dry';
// the objects, writes and events of the tests' own requests are compared exactly: no controller writes besides
const { call, server } = useTestServer([NS], WITHOUT_DEPLOYMENT_CONTROLLER);
const DEPLOYMENTS = collectionPath(deployment, NS);
const WEB = itemPath(deployment, 'web', NS);
const SMP = { 'content-type': 'application/strategic-merge-patch+json' };
const DRY = 'dryRun=All';

/** Runs `request` and checks that the database is exactly as before: no row, no change, no resourceVersion drawn. */
async function writesNothing(request: () => Promise<HttpResult>): Promise<HttpResult> {
  const before = await dbState(server());
  const response = await request();
  expect(await dbState(server())).toEqual(before);
  return response;
}

/** The same request as a real write and as a dry run answer the same error. */
async function sameErrorAsReal(method: string, path: string, body: unknown, code: number, headers?: Record<string, string>) {
  const separator = path.includes('?') ? '&' : '?';
  const dry = await writesNothing(() => call(method, `${path}${separator}${DRY}`, body, headers));
  const real = await call(method, path, body, headers);
  expect(real.status).toBe(code);
  expect(dry.status).toBe(code);
  expect(dry.json).toEqual(real.json);
}

beforeEach(async () => {
  await call('DELETE', `${WEB}?propagationPolicy=Background`);
  const created = await call('POST', DEPLOYMENTS, deployment.manifest);
  expect(created.status).toBe(201);
});

describe('dryRun=All on a create', () => {
  it('answers 201 with the object as it would be stored (defaults, uid, creationTimestamp, no resourceVersion)', async () => {
    const response = await writesNothing(() =>
      call('POST', `${DEPLOYMENTS}?${DRY}`, { ...deployment.manifest, metadata: { name: 'preview' } }),
    );
    expect(response.status).toBe(201);
    expect(response.json.metadata).toEqual({
      name: 'preview',
      namespace: NS,
      selfLink: `${DEPLOYMENTS}/preview`,
      uid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      generation: 1,
      creationTimestamp: expect.stringMatching(/Z$/),
      labels: { app: 'web' },
      managedFields: [expect.objectContaining({ operation: 'Update', apiVersion: 'extensions/v1beta1', fieldsType: 'FieldsV1' })],
    });
    expect(response.json.spec.template.spec.containers[0]).toMatchObject({ terminationMessagePath: '/dev/termination-log' });
    expect((await call('GET', `${DEPLOYMENTS}/preview`)).status).toBe(404);
    const real = await call('POST', DEPLOYMENTS, { ...deployment.manifest, metadata: { name: 'preview' } });
    await call('DELETE', `${DEPLOYMENTS}/preview?propagationPolicy=Background`);
    // the managed fields' times are the writes' own
    const withoutTimes = (entries: { time?: string }[]) => entries.map(({ time: _time, ...entry }) => entry);
    const { uid, creationTimestamp, resourceVersion, managedFields, ...identical } = real.json.metadata;
    const realOnly = { uid, creationTimestamp, resourceVersion };
    expect(withoutTimes(response.json.metadata.managedFields)).toEqual(withoutTimes(managedFields));
    expect(realOnly).toEqual({ uid: expect.any(String), creationTimestamp: expect.any(String), resourceVersion: expect.any(String) });
    expect({ ...response.json, metadata: { ...response.json.metadata, uid: undefined, creationTimestamp: undefined, managedFields: undefined } }).toEqual({
      ...real.json,
      metadata: identical,
    });
  });

  it('generates a name from generateName', async () => {
    const response = await writesNothing(() =>
      call('POST', `${DEPLOYMENTS}?${DRY}`, { ...deployment.manifest, metadata: { generateName: 'web-' } }),
    );
    expect(response.status).toBe(201);
    expect(response.json.metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
  });

  it('answers 409 AlreadyExists for a taken name, as the real create does', async () => {
    await sameErrorAsReal('POST', DEPLOYMENTS, deployment.manifest, 409);
  });

  it('answers 422 for an invalid object, as the real create does', async () => {
    await sameErrorAsReal('POST', DEPLOYMENTS, { ...deployment.manifest, metadata: { name: 'Bad_Name' } }, 422);
  });

  it('with pending initializers answers at once (202 with includeUninitialized=1, as the real one) and stores nothing', async () => {
    const body = { ...deployment.manifest, metadata: { name: 'init', initializers: { pending: [{ name: 'a.example.com' }] } } };
    const waiting = await writesNothing(() => call('POST', `${DEPLOYMENTS}?${DRY}`, body));
    expect(waiting.status).toBe(201);
    expect(waiting.json.metadata.initializers.pending).toEqual([{ name: 'a.example.com' }]);
    const accepted = await writesNothing(() => call('POST', `${DEPLOYMENTS}?${DRY}&includeUninitialized=1`, body));
    expect(accepted.status).toBe(202);
  });

  it('answers 201 on a cluster-scoped kind and stores nothing', async () => {
    const response = await writesNothing(() => call('POST', `${collectionPath(cluster)}?${DRY}`, cluster.manifest));
    expect(response.status).toBe(201);
    expect(response.json.metadata.name).toBe(cluster.manifest.metadata.name);
    expect((await call('GET', itemPath(cluster, cluster.manifest.metadata.name))).status).toBe(404);
  });
});

describe('dryRun=All on a replace or patch', () => {
  it('PUT answers the object as it would be stored, with the version it has, and changes nothing', async () => {
    const current = (await call('GET', WEB)).json;
    const body = { ...current, spec: { ...current.spec, replicas: 7 } };
    const response = await writesNothing(() => call('PUT', `${WEB}?${DRY}`, body));
    expect(response.status).toBe(200);
    expect(response.json.spec.replicas).toBe(7);
    expect(response.json.metadata).toMatchObject({ generation: 2, resourceVersion: current.metadata.resourceVersion, uid: current.metadata.uid });
    expect((await call('GET', WEB)).json).toEqual(current);
  });

  it('PUT with a stale resourceVersion answers 409 like the real one', async () => {
    const current = (await call('GET', WEB)).json;
    const stale = { ...current, metadata: { ...current.metadata, resourceVersion: '1' } };
    await sameErrorAsReal('PUT', WEB, stale, 409);
  });

  it('PUT of an invalid object answers 422, PUT of a missing one 404, like the real ones', async () => {
    const current = (await call('GET', WEB)).json;
    await sameErrorAsReal('PUT', WEB, { ...current, spec: { ...current.spec, replicas: -1 } }, 422);
    await sameErrorAsReal('PUT', `${DEPLOYMENTS}/missing`, { ...current, metadata: { name: 'missing' } }, 404);
  });

  it('PATCH (all three types) answers the patched object and changes nothing', async () => {
    const version = (await call('GET', WEB)).json.metadata.resourceVersion;
    const patches: [string, unknown][] = [
      ['application/strategic-merge-patch+json', { spec: { replicas: 5 } }],
      ['application/merge-patch+json', { spec: { replicas: 5 } }],
      ['application/json-patch+json', [{ op: 'replace', path: '/spec/replicas', value: 5 }]],
    ];
    for (const [type, patch] of patches) {
      const response = await writesNothing(() => call('PATCH', `${WEB}?${DRY}`, patch, { 'content-type': type }));
      expect(response.status).toBe(200);
      expect(response.json.spec.replicas).toBe(5);
      expect(response.json.metadata.resourceVersion).toBe(version);
    }
    expect((await call('GET', WEB)).json.spec.replicas).toBe(2);
  });

  it('PATCH errors are the real ones: 422 invalid, 404 missing', async () => {
    await sameErrorAsReal('PATCH', WEB, { spec: { replicas: -1 } }, 422, SMP);
    await sameErrorAsReal('PATCH', `${DEPLOYMENTS}/missing`, { spec: { replicas: 1 } }, 404, SMP);
  });
});

describe('dryRun=All on subresources', () => {
  it('status PUT and PATCH answer the new status and change nothing', async () => {
    const current = (await call('GET', WEB)).json;
    const put = await writesNothing(() =>
      call('PUT', `${WEB}/status?${DRY}`, { ...current, status: { replicas: 2, observedGeneration: 1 } }),
    );
    expect(put.status).toBe(200);
    expect(put.json.status).toMatchObject({ replicas: 2, observedGeneration: 1 });
    const patch = await writesNothing(() => call('PATCH', `${WEB}/status?${DRY}`, { status: { replicas: 3 } }, SMP));
    expect(patch.status).toBe(200);
    expect(patch.json.status.replicas).toBe(3);
    await sameErrorAsReal('PATCH', `${WEB}/status`, { status: { replicas: -3 } }, 422, SMP);
  });

  it('scale PUT and PATCH answer the new Scale and change nothing', async () => {
    const scale = (await call('GET', `${WEB}/scale`)).json;
    const put = await writesNothing(() => call('PUT', `${WEB}/scale?${DRY}`, { ...scale, spec: { replicas: 9 } }));
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ kind: 'Scale', spec: { replicas: 9 } });
    const patch = await writesNothing(() => call('PATCH', `${WEB}/scale?${DRY}`, { spec: { replicas: 4 } }, SMP));
    expect(patch.status).toBe(200);
    expect(patch.json.spec.replicas).toBe(4);
    const stale = { ...scale, metadata: { ...scale.metadata, resourceVersion: '1' }, spec: { replicas: 3 } };
    await sameErrorAsReal('PUT', `${WEB}/scale`, stale, 409);
    await sameErrorAsReal('PATCH', `${WEB}/scale`, { spec: { replicas: -1 } }, 422, SMP);
  });

  it('rollback answers 201 with its Status and changes nothing', async () => {
    const rollback = { kind: 'DeploymentRollback', apiVersion: 'extensions/v1beta1', name: 'web', rollbackTo: { revision: 2 } };
    const response = await writesNothing(() => call('POST', `${WEB}/rollback?${DRY}`, rollback));
    expect(response.status).toBe(201);
    expect(response.json).toMatchObject({ kind: 'Status', status: 'Success', code: 200 });
    expect((await call('GET', WEB)).json.spec.rollbackTo).toBeUndefined();
    await sameErrorAsReal('POST', `${DEPLOYMENTS}/missing/rollback`, { ...rollback, name: 'missing' }, 404);
  });
});

describe('dryRun=All on a delete', () => {
  it('of an object its finalizers hold answers it marked for deletion and changes nothing', async () => {
    const current = (await call('GET', WEB)).json;
    const response = await writesNothing(() => call('DELETE', `${WEB}?${DRY}`));
    expect(response.status).toBe(200);
    expect(response.json.metadata).toMatchObject({ finalizers: ['orphan'], deletionGracePeriodSeconds: 0, generation: 2 });
    expect(response.json.metadata.deletionTimestamp).toMatch(/Z$/);
    expect((await call('GET', WEB)).json).toEqual(current);
  });

  it('removed at once answers the success Status (dryRun in the DeleteOptions body) and changes nothing', async () => {
    const response = await writesNothing(() =>
      call('DELETE', WEB, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background', dryRun: ['All'] }),
    );
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'web', kind: 'deployments' } });
    expect((await call('GET', WEB)).status).toBe(200);
  });

  it('answers 409 on a failed uid precondition and 404 on a missing object, like the real delete', async () => {
    const options = { preconditions: { uid: 'not-the-uid' } };
    const dry = await writesNothing(() => call('DELETE', WEB, { ...options, dryRun: ['All'] }));
    const real = await call('DELETE', WEB, options);
    expect(real.status).toBe(409);
    expect(dry.json).toEqual(real.json);
    await sameErrorAsReal('DELETE', `${DEPLOYMENTS}/missing`, undefined, 404);
  });

  it('gives the garbage collector nothing to do: an owner\'s dry foreground delete leaves its dependent alone', async () => {
    const owner = (await call('GET', WEB)).json;
    const { uid } = owner.metadata;
    const reference = { apiVersion: 'extensions/v1beta1', kind: 'Deployment', name: 'web', uid, blockOwnerDeletion: true };
    const replicaSets = collectionPath(kindNamed('ReplicaSet'), NS);
    const dependent = { ...kindNamed('ReplicaSet').manifest, metadata: { name: 'web-1', ownerReferences: [reference] } };
    expect((await call('POST', replicaSets, dependent)).status).toBe(201);
    const before = await dbState(server());
    const response = await call('DELETE', WEB, { propagationPolicy: 'Foreground', dryRun: ['All'] });
    expect(response.json.metadata.finalizers).toEqual(['foregroundDeletion']);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await dbState(server())).toEqual(before);
    await call('DELETE', `${replicaSets}/web-1?propagationPolicy=Background`);
  });

  it('asked in the query beside a DeleteOptions body without one is still a dry run (the fuzz suite found it deleting)', async () => {
    const single = await writesNothing(() => call('DELETE', `${WEB}?${DRY}`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' }));
    expect(single.status).toBe(200);
    const collection = await writesNothing(() => call('DELETE', `${DEPLOYMENTS}?${DRY}`, { propagationPolicy: 'Background' }));
    expect(collection.status).toBe(200);
    expect((await call('GET', WEB)).status).toBe(200);
  });

  it('of a collection answers the list and deletes nothing', async () => {
    await call('POST', DEPLOYMENTS, { ...deployment.manifest, metadata: { name: 'web2' } });
    const response = await writesNothing(() => call('DELETE', `${DEPLOYMENTS}?${DRY}`));
    expect(response.status).toBe(200);
    expect(response.json.items.map((i: any) => i.metadata.name)).toEqual(['web', 'web2']);
    expect((await call('GET', DEPLOYMENTS)).json.items).toHaveLength(2);
    await call('DELETE', `${DEPLOYMENTS}/web2?propagationPolicy=Background`);
  });
});

describe('dry runs and watchers', () => {
  it('send no event: the first event after dry writes is the next real write', async () => {
    const version = (await call('GET', WEB)).json.metadata.resourceVersion;
    const watch = await WatchClient.open(server().url, `${DEPLOYMENTS}?watch=true&resourceVersion=${version}`);
    try {
      await call('PATCH', `${WEB}?${DRY}`, { spec: { replicas: 6 } }, SMP);
      await call('POST', `${DEPLOYMENTS}?${DRY}`, { ...deployment.manifest, metadata: { name: 'ghost' } });
      await call('DELETE', `${WEB}?${DRY}`);
      await call('PATCH', WEB, { spec: { replicas: 3 } }, SMP);
      const [event] = await watch.count(1);
      expect(event.type).toBe('MODIFIED');
      expect(event.object.spec.replicas).toBe(3);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(watch.events).toHaveLength(1);
    } finally {
      watch.close();
    }
  });
});

describe('a dryRun value other than All', () => {
  const unsupported = (kind: string, values: string) =>
    `${kind}.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{${values}}: supported values: "All"`;

  it.each([
    ['POST', DEPLOYMENTS, 'CreateOptions', deployment.manifest, undefined],
    ['PUT', WEB, 'UpdateOptions', deployment.manifest, undefined],
    ['PATCH', WEB, 'PatchOptions', { spec: { replicas: 1 } }, SMP],
    ['DELETE', WEB, 'DeleteOptions', undefined, undefined],
    ['DELETE', DEPLOYMENTS, 'DeleteOptions', undefined, undefined],
    ['PATCH', `${WEB}/scale`, 'PatchOptions', { spec: { replicas: 1 } }, SMP],
    ['POST', `${WEB}/rollback`, 'CreateOptions', { name: 'web', rollbackTo: {} }, undefined],
  ])('%s %s answers 422 on %s and changes nothing', async (method, path, kind, body, headers) => {
    const response = await writesNothing(() => call(method, `${path}?dryRun=All&dryRun=Some`, body, headers));
    expectFailure(response, 422, 'Invalid', unsupported(kind, '"All", "Some"'));
    expect(response.json.details).toEqual({
      group: 'meta.k8s.io',
      kind,
      causes: [{ reason: 'FieldValueNotSupported', message: expect.stringMatching(/^Unsupported value/), field: 'dryRun' }],
    });
  });

  it('in a DeleteOptions body answers 422 too; an empty value is refused as well', async () => {
    const body = await writesNothing(() => call('DELETE', WEB, { dryRun: ['all'] }));
    expectFailure(body, 422, 'Invalid', unsupported('DeleteOptions', '"all"'));
    const empty = await writesNothing(() => call('POST', `${DEPLOYMENTS}?dryRun=`, deployment.manifest));
    expectFailure(empty, 422, 'Invalid', unsupported('CreateOptions', '""'));
  });
});
