import { join } from 'node:path';
import { useTestServer } from './support/api';
import { usePreviousBuildRows } from './support/previous-build-rows';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// the tests' own objects, versions and events are compared exactly: no deployment controller writes besides
const { call, server } = useTestServer([], WITHOUT_DEPLOYMENT_CONTROLLER);

/**
 * Objects the previous build (c231e07, before the apps group) wrote through extensions/v1beta1, as its `objects` rows
 * hold them (captured from that build's database): the stored form did not change, so this build serves them in every
 * apps version as it serves its own.
 */
const byName = usePreviousBuildRows(server, join(__dirname, 'fixtures', 'apps', 'objects-c231e07.json'));

describe('objects the previous build stored', () => {
  it('are served through apps/v1 with their uid, fields and extensions’ own fields in upstream’s annotations', async () => {
    const deployment = await call('GET', '/apis/apps/v1/namespaces/default/deployments/old-web');
    expect(deployment.status).toBe(200);
    const stored = byName('old-web');
    expect(deployment.json).toMatchObject({
      apiVersion: 'apps/v1',
      metadata: { uid: stored.metadata.uid, labels: stored.metadata.labels, annotations: { owner: 'team-a', 'deprecated.deployment.rollback.to': '2' } },
      spec: { replicas: 2, selector: stored.spec.selector, strategy: stored.spec.strategy },
      status: stored.status,
    });
    expect(deployment.json.spec).not.toHaveProperty('rollbackTo');
    const daemonSet = (await call('GET', '/apis/apps/v1/namespaces/default/daemonsets/old-agent')).json;
    expect(daemonSet.metadata.annotations).toEqual({ 'deprecated.daemonset.template.generation': String(byName('old-agent').spec.templateGeneration) });
    expect(daemonSet.spec.updateStrategy).toEqual({ type: 'OnDelete' });
    const replicaSets = (await call('GET', '/apis/apps/v1beta2/namespaces/default/replicasets')).json;
    expect(replicaSets.items.map((rs: any) => [rs.apiVersion ?? replicaSets.apiVersion, rs.metadata.name, rs.metadata.uid])).toEqual([['apps/v1beta2', 'old-rs', byName('old-rs').metadata.uid]]);
    expect((await call('GET', '/apis/apps/v1beta1/namespaces/default/deployments/old-web')).json.spec.rollbackTo).toEqual({ revision: 2 });
  });

  it('are written through apps/v1 and read back through extensions as the previous build wrote them, but for the change', async () => {
    const patched = await call('PATCH', '/apis/apps/v1/namespaces/default/deployments/old-web/scale', { spec: { replicas: 5 } }, { 'content-type': 'application/merge-patch+json' });
    expect(patched.status).toBe(200);
    const inV1 = (await call('GET', '/apis/apps/v1/namespaces/default/deployments/old-web')).json;
    expect(inV1.metadata.managedFields).toContainEqual(expect.objectContaining({ operation: 'Update', subresource: 'scale', apiVersion: 'apps/v1' }));
    const after = (await call('GET', '/apis/extensions/v1beta1/namespaces/default/deployments/old-web')).json;
    const { metadata, spec, ...rest } = byName('old-web');
    // the write changes the replicas, and with them the generation, resourceVersion and the scaler's managed fields
    const changing = { selfLink: undefined, resourceVersion: undefined, generation: undefined, managedFields: undefined };
    expect({ ...after, metadata: { ...after.metadata, ...changing } }).toEqual({
      ...rest,
      metadata: { ...metadata, ...changing },
      spec: { ...spec, replicas: 5 },
    });
  });
});
