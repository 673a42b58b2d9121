import { dump, load } from 'js-yaml';
import { useTestServer } from './support/api';
import { viewColumns } from './support/operator-views';
import { WatchClient } from './support/watch-client';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// the objects, writes and events of the tests' own requests are compared exactly: no controller writes besides
const { call, server } = useTestServer(['apps-api'], WITHOUT_DEPLOYMENT_CONTROLLER);
const NS = '/namespaces/apps-api';
const EXT = `/apis/extensions/v1beta1${NS}`;
const V1 = `/apis/apps/v1${NS}`;
const V1BETA2 = `/apis/apps/v1beta2${NS}`;
const V1BETA1 = `/apis/apps/v1beta1${NS}`;
const MERGE = { 'content-type': 'application/merge-patch+json' };
const APPLY = { 'content-type': 'application/apply-patch+yaml' };

const template = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: app, image: 'nginx:1.27' }] } });

const deployment = (apiVersion: string, name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion,
  kind: 'Deployment',
  metadata: { name },
  spec: { replicas: 2, selector: { matchLabels: { app: name } }, template: template(name), ...spec },
});

const daemonSet = (apiVersion: string, name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion,
  kind: 'DaemonSet',
  metadata: { name },
  spec: { selector: { matchLabels: { app: name } }, template: template(name), ...spec },
});

const replicaSet = (apiVersion: string, name: string) => ({
  apiVersion,
  kind: 'ReplicaSet',
  metadata: { name },
  spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: template(name) },
});

describe('the apps group over extensions/v1beta1’s objects', () => {
  it('is discovered after extensions, with v1 preferred and upstream’s kinds per version', async () => {
    const groups = (await call('GET', '/apis')).json.groups.map((g: any) => g.name);
    expect(groups.indexOf('extensions')).toBeLessThan(groups.indexOf('apps'));
    const apps = (await call('GET', '/apis/apps')).json;
    expect(apps.versions.map((v: any) => v.groupVersion)).toEqual(['apps/v1', 'apps/v1beta2', 'apps/v1beta1']);
    expect(apps.preferredVersion).toEqual({ groupVersion: 'apps/v1', version: 'v1' });
    const names = async (gv: string) => (await call('GET', `/apis/${gv}`)).json.resources.map((r: any) => `${r.name}:${r.kind}`).sort();
    const v1 = ['daemonsets:DaemonSet', 'daemonsets/status:DaemonSet', 'deployments:Deployment', 'deployments/scale:Scale', 'deployments/status:Deployment'];
    const rs = ['replicasets:ReplicaSet', 'replicasets/scale:Scale', 'replicasets/status:ReplicaSet'];
    expect(await names('apps/v1')).toEqual([...v1, ...rs].sort());
    expect(await names('apps/v1beta2')).toEqual([...v1, ...rs].sort());
    expect(await names('apps/v1beta1')).toEqual(['deployments:Deployment', 'deployments/rollback:DeploymentRollback', 'deployments/scale:Scale', 'deployments/status:Deployment'].sort());
    const scale = (await call('GET', '/apis/apps/v1')).json.resources.find((r: any) => r.name === 'deployments/scale');
    expect(scale).toMatchObject({ group: 'autoscaling', version: 'v1' });
  });

  it('reads, patches and lists through apps/v1 the object extensions created: one uid, one resourceVersion', async () => {
    const created = await call('POST', `${EXT}/deployments`, deployment('extensions/v1beta1', 'shared'));
    expect(created.status).toBe(201);
    const read = await call('GET', `${V1}/deployments/shared`);
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { uid: created.json.metadata.uid, resourceVersion: created.json.metadata.resourceVersion } });
    expect(read.json.metadata.selfLink).toBe(`${V1}/deployments/shared`);
    // extensions' 1.7 defaults, not apps/v1's; the two fields extensions leaves unset (no limit, no deadline) read as
    // the MaxInt32 later releases' extensions defaulted them to, which means the same
    expect(read.json.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } });
    expect(read.json.spec.revisionHistoryLimit).toBe(2147483647);
    expect(read.json.spec.progressDeadlineSeconds).toBe(2147483647);

    // a write through apps/v1 that changes no spec field changes nothing extensions shows, and not the generation
    const labelled = await call('PATCH', `${V1}/deployments/shared`, { metadata: { labels: { labelled: 'yes' } } }, MERGE);
    expect(labelled.status).toBe(200);
    const unchanged = (await call('GET', `${EXT}/deployments/shared`)).json;
    expect(unchanged.spec).toEqual(created.json.spec);
    expect(labelled.json.metadata.generation).toBe(created.json.metadata.generation);

    const patched = await call('PATCH', `${V1}/deployments/shared`, { metadata: { labels: { through: 'apps' } }, spec: { replicas: 3 } }, MERGE);
    expect(patched.status).toBe(200);
    expect(patched.json.apiVersion).toBe('apps/v1');
    const back = (await call('GET', `${EXT}/deployments/shared`)).json;
    expect(back).toMatchObject({ apiVersion: 'extensions/v1beta1', spec: { replicas: 3 }, metadata: { uid: created.json.metadata.uid, labels: { through: 'apps' } } });
    expect(back.metadata.resourceVersion).toBe(patched.json.metadata.resourceVersion);

    const list = (await call('GET', `${V1}/deployments?labelSelector=through%3Dapps`)).json;
    expect(list).toMatchObject({ kind: 'DeploymentList', apiVersion: 'apps/v1' });
    expect(list.items.map((d: any) => d.metadata.name)).toEqual(['shared']);
    expect((await call('GET', `/apis/apps/v1/deployments?fieldSelector=metadata.name%3Dshared`)).json.items).toHaveLength(1);
  });

  it('keeps a MaxInt32 history limit and deadline that extensions stored, and reads them through apps/v1 whatever the template names', async () => {
    const unlimited = { revisionHistoryLimit: 2147483647, progressDeadlineSeconds: 2147483647 };
    const explicit = await call('POST', `${EXT}/deployments`, deployment('extensions/v1beta1', 'explicit-unlimited', unlimited));
    expect(explicit.status).toBe(201);
    const labelled = await call('PATCH', `${V1}/deployments/explicit-unlimited`, { metadata: { labels: { labelled: 'yes' } } }, MERGE);
    expect(labelled.json.metadata.generation).toBe(explicit.json.metadata.generation);
    expect((await call('GET', `${EXT}/deployments/explicit-unlimited`)).json.spec).toMatchObject(unlimited);

    // template annotations named like the two fields are not the fields
    const named = template('named-like');
    Object.assign(named.metadata, { annotations: { revisionHistoryLimit: '3', progressDeadlineSeconds: '4' } });
    const created = await call('POST', `${EXT}/deployments`, deployment('extensions/v1beta1', 'named-like', { template: named }));
    expect(created.status).toBe(201);
    expect((await call('GET', `${V1}/deployments/named-like`)).json.spec).toMatchObject(unlimited);
    const listed = (await call('GET', `${V1}/deployments?fieldSelector=metadata.name%3Dnamed-like`)).json.items[0];
    expect(listed.spec).toMatchObject(unlimited);
  });

  it('applies each version’s defaults only to what is written in it', async () => {
    const v1 = await call('POST', `${V1}/deployments`, deployment('apps/v1', 'written-v1'));
    expect(v1.status).toBe(201);
    expect(v1.json.spec).toMatchObject({ revisionHistoryLimit: 10, progressDeadlineSeconds: 600, strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } } });
    const beta1 = await call('POST', `${V1BETA1}/deployments`, deployment('apps/v1beta1', 'written-beta1', { selector: undefined }));
    expect(beta1.status).toBe(201);
    expect(beta1.json.spec).toMatchObject({ revisionHistoryLimit: 2, progressDeadlineSeconds: 600, selector: { matchLabels: { app: 'written-beta1' } } });
    expect(beta1.json.metadata.labels).toEqual({ app: 'written-beta1' });
    const v1Labels = (await call('GET', `${V1}/deployments/written-v1`)).json.metadata.labels;
    expect(v1Labels).toBeUndefined(); // apps/v1 copies no labels from the template

    const ds = await call('POST', `${V1}/daemonsets`, daemonSet('apps/v1', 'agent-v1'));
    expect(ds.status).toBe(201);
    expect(ds.json.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect(ds.json.spec.revisionHistoryLimit).toBe(10);
    expect(ds.json.metadata.annotations).toEqual({ 'deprecated.daemonset.template.generation': '1' });
    const extDs = await call('POST', `${EXT}/daemonsets`, daemonSet('extensions/v1beta1', 'agent-ext'));
    expect(extDs.json.spec.updateStrategy).toEqual({ type: 'OnDelete' });
    expect(extDs.json.spec.templateGeneration).toBe(1);
    const extDsInV1 = (await call('GET', `${V1}/daemonsets/agent-ext`)).json;
    expect(extDsInV1.spec.updateStrategy).toEqual({ type: 'OnDelete' });
    expect(extDsInV1.spec).not.toHaveProperty('templateGeneration');
    expect(extDsInV1.metadata.annotations).toEqual({ 'deprecated.daemonset.template.generation': '1' });
    // a template change through apps/v1 raises the generation extensions shows
    const changed = await call('PATCH', `${V1}/daemonsets/agent-ext`, { spec: { template: { spec: { containers: [{ name: 'agent-ext', image: 'nginx:1.28' }] } } } }, { 'content-type': 'application/strategic-merge-patch+json' });
    expect(changed.status).toBe(200);
    expect(changed.json.metadata.annotations['deprecated.daemonset.template.generation']).toBe('2');
    expect((await call('GET', `${EXT}/daemonsets/agent-ext`)).json.spec.templateGeneration).toBe(2);

    const rs = await call('POST', `${V1BETA2}/replicasets`, replicaSet('apps/v1beta2', 'rs-beta2'));
    expect(rs.status).toBe(201);
    expect((await call('GET', `${V1}/replicasets/rs-beta2`)).json).toMatchObject({ apiVersion: 'apps/v1', spec: { replicas: 1 } });
  });

  it('requires a selector in apps/v1 and keeps it fixed there, as upstream; extensions may still change it', async () => {
    const noSelector = await call('POST', `${V1}/deployments`, deployment('apps/v1', 'no-selector', { selector: undefined }));
    expect(noSelector.status).toBe(422);
    expect(noSelector.json.details.causes).toEqual(expect.arrayContaining([{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.selector' }]));
    const noDsSelector = await call('POST', `${V1}/daemonsets`, daemonSet('apps/v1', 'no-selector', { selector: undefined }));
    expect(noDsSelector.status).toBe(422);

    await call('POST', `${V1}/replicasets`, replicaSet('apps/v1', 'fixed'));
    const moved = { spec: { selector: { matchLabels: { app: 'fixed', tier: 'x' } }, template: { metadata: { labels: { app: 'fixed', tier: 'x' } } } } };
    const refused = await call('PATCH', `${V1}/replicasets/fixed`, moved, MERGE);
    expect(refused.status).toBe(422);
    expect(refused.json.message).toContain('spec.selector: Invalid value');
    expect(refused.json.message).toContain('field is immutable');
    expect((await call('PATCH', `${V1BETA2}/replicasets/fixed`, moved, MERGE)).status).toBe(422);
    expect((await call('PATCH', `${EXT}/replicasets/fixed`, moved, MERGE)).status).toBe(200);
  });

  it('keeps rollbackTo as upstream’s annotation in apps/v1 and the field in apps/v1beta1, and rolls back through v1beta1', async () => {
    await call('POST', `${V1BETA1}/deployments`, deployment('apps/v1beta1', 'rolled'));
    const rollback = await call('POST', `${V1BETA1}/deployments/rolled/rollback`, {
      apiVersion: 'apps/v1beta1',
      kind: 'DeploymentRollback',
      name: 'rolled',
      rollbackTo: { revision: 4 },
    });
    expect(rollback.status).toBe(201);
    expect((await call('GET', `${V1BETA1}/deployments/rolled`)).json.spec.rollbackTo).toEqual({ revision: 4 });
    expect((await call('GET', `${EXT}/deployments/rolled`)).json.spec.rollbackTo).toEqual({ revision: 4 });
    const v1 = (await call('GET', `${V1}/deployments/rolled`)).json;
    expect(v1.metadata.annotations).toEqual({ 'deprecated.deployment.rollback.to': '4' });
    expect(v1.spec).not.toHaveProperty('rollbackTo');
    // a PUT of what apps/v1 read keeps it; dropping the annotation drops the rollback
    expect((await call('PUT', `${V1}/deployments/rolled`, v1)).status).toBe(200);
    expect((await call('GET', `${EXT}/deployments/rolled`)).json.spec.rollbackTo).toEqual({ revision: 4 });
    const put = await call('PUT', `${V1}/deployments/rolled`, { ...v1, metadata: { ...v1.metadata, annotations: {}, resourceVersion: undefined } });
    expect(put.status).toBe(200);
    expect((await call('GET', `${EXT}/deployments/rolled`)).json.spec).not.toHaveProperty('rollbackTo');
  });

  it('never serves through apps/v1 a rollback annotation that extensions stored without a rollbackTo, so a PUT of what was read rolls nothing back', async () => {
    const annotated = deployment('extensions/v1beta1', 'annotated');
    await call('POST', `${EXT}/deployments`, { ...annotated, metadata: { name: 'annotated', annotations: { 'deprecated.deployment.rollback.to': '1' } } });
    const read = (await call('GET', `${V1}/deployments/annotated`)).json;
    expect(read.metadata.annotations).toBeUndefined();
    const listed = (await call('GET', `${V1}/deployments?fieldSelector=metadata.name%3Dannotated`)).json.items[0];
    expect(listed.metadata.annotations).toBeUndefined();
    expect((await call('PUT', `${V1}/deployments/annotated`, read)).status).toBe(200);
    expect((await call('GET', `${EXT}/deployments/annotated`)).json.spec).not.toHaveProperty('rollbackTo');
  });

  it('defaults an apps/v1beta2 DaemonSet as apps/v1, and refuses an empty template generation annotation', async () => {
    const beta2 = await call('POST', `${V1BETA2}/daemonsets`, daemonSet('apps/v1beta2', 'agent-beta2'));
    expect(beta2.json.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    const empty = { ...daemonSet('apps/v1', 'agent-empty'), metadata: { name: 'agent-empty', annotations: { 'deprecated.daemonset.template.generation': '' } } };
    const refused = await call('POST', `${V1}/daemonsets`, empty);
    expect(refused.status).toBe(400);
    expect(refused.json.message).toContain('failed to parse annotation[deprecated.daemonset.template.generation]= as int64');
  });

  it('scales through autoscaling/v1 in apps/v1 and the version’s own Scale in the betas, without defaulting', async () => {
    await call('POST', `${EXT}/deployments`, deployment('extensions/v1beta1', 'scaled'));
    const scale = await call('GET', `${V1}/deployments/scaled/scale`);
    expect(scale.status).toBe(200);
    expect(scale.json).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 2 }, status: { replicas: 0, selector: 'app=scaled' } });
    const put = await call('PUT', `${V1}/deployments/scaled/scale`, { ...scale.json, spec: { replicas: 5 } });
    expect(put.status).toBe(200);
    expect(put.json.spec.replicas).toBe(5);
    const beta2 = await call('PATCH', `${V1BETA2}/deployments/scaled/scale`, { spec: { replicas: 6 } }, MERGE);
    expect(beta2.json).toMatchObject({ apiVersion: 'apps/v1beta2', spec: { replicas: 6 }, status: { selector: { app: 'scaled' }, targetSelector: 'app=scaled' } });
    const beta1 = await call('GET', `${V1BETA1}/deployments/scaled/scale`);
    expect(beta1.json).toMatchObject({ apiVersion: 'apps/v1beta1', spec: { replicas: 6 } });
    const stored = (await call('GET', `${EXT}/deployments/scaled`)).json;
    expect(stored.spec.replicas).toBe(6);
    expect(stored.spec.revisionHistoryLimit).toBeUndefined(); // no apps/v1 default came with the scale
    await call('POST', `${V1}/replicasets`, replicaSet('apps/v1', 'rs-scaled'));
    const rsScale = await call('PATCH', `${V1}/replicasets/rs-scaled/scale`, { spec: { replicas: 0 } }, MERGE);
    expect(rsScale.json).toMatchObject({ apiVersion: 'autoscaling/v1', spec: {} });
    expect((await call('GET', `${EXT}/replicasets/rs-scaled`)).json.spec.replicas).toBe(0);
  });

  it('applies server-side through apps/v1 and reads the result through extensions', async () => {
    const config = deployment('apps/v1', 'applied');
    const applied = await call('PATCH', `${V1}/deployments/applied?fieldManager=helm`, JSON.stringify(config), APPLY);
    expect(applied.status).toBe(201);
    expect(applied.json.metadata.managedFields).toEqual([expect.objectContaining({ manager: 'helm', operation: 'Apply', apiVersion: 'apps/v1' })]);
    expect(applied.json.spec.revisionHistoryLimit).toBe(10);
    const again = await call('PATCH', `${V1}/deployments/applied?fieldManager=helm`, JSON.stringify(deployment('apps/v1', 'applied', { replicas: 4 })), APPLY);
    expect(again.status).toBe(200);
    expect((await call('GET', `${EXT}/deployments/applied`)).json).toMatchObject({ apiVersion: 'extensions/v1beta1', spec: { replicas: 4 } });
  });

  it('dry-runs a create and a patch through apps/v1: the answer in apps/v1, nothing written', async () => {
    const created = await call('POST', `${V1}/deployments?dryRun=All`, deployment('apps/v1', 'dry'));
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ apiVersion: 'apps/v1', spec: { revisionHistoryLimit: 10, progressDeadlineSeconds: 600 } });
    expect((await call('GET', `${EXT}/deployments/dry`)).status).toBe(404);
    const stored = (await call('POST', `${EXT}/deployments`, deployment('extensions/v1beta1', 'kept'))).json;
    const change = { metadata: { labels: { dry: 'run' } }, spec: { replicas: 5 } };
    const patched = await call('PATCH', `${V1}/deployments/kept?dryRun=All`, change, MERGE);
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ apiVersion: 'apps/v1', ...change });
    expect((await call('GET', `${EXT}/deployments/kept`)).json).toEqual(stored);
    // the answer is what the real patch writes
    const real = await call('PATCH', `${V1}/deployments/kept`, change, MERGE);
    const unversioned = ({ metadata: { resourceVersion, managedFields, ...metadata }, ...object }: any) => ({ ...object, metadata });
    expect(unversioned(patched.json)).toEqual(unversioned(real.json));
  });

  it('watches in apps/v1 what extensions writes, and in extensions what apps/v1 writes', async () => {
    const start = (await call('GET', `${V1}/deployments`)).json.metadata.resourceVersion;
    const v1Watch = await WatchClient.open(server().url, `${V1}/deployments?watch=1&resourceVersion=${start}`);
    const extWatch = await WatchClient.open(server().url, `${EXT}/deployments?watch=1&resourceVersion=${start}`);
    try {
      await call('POST', `${EXT}/deployments`, deployment('extensions/v1beta1', 'watched-ext'));
      await call('POST', `${V1}/deployments`, deployment('apps/v1', 'watched-v1'));
      await call('DELETE', `${V1}/deployments/watched-ext`, { propagationPolicy: 'Background' });
      await v1Watch.count(3);
      await extWatch.count(3);
      expect(v1Watch.summary()).toEqual(['ADDED watched-ext', 'ADDED watched-v1', 'DELETED watched-ext']);
      expect(extWatch.summary()).toEqual(['ADDED watched-ext', 'ADDED watched-v1', 'DELETED watched-ext']);
      expect(v1Watch.events.map((e: any) => e.object.apiVersion)).toEqual(['apps/v1', 'apps/v1', 'apps/v1']);
      expect(extWatch.events[1].object).toMatchObject({ apiVersion: 'extensions/v1beta1', spec: { revisionHistoryLimit: 10 } });
    } finally {
      v1Watch.close();
      extWatch.close();
    }
  });

  it('answers Tables with upstream’s columns in apps/v1', async () => {
    const table = await call('GET', `${V1}/deployments`, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.status).toBe(200);
    expect(table.json.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector']);
  });

  it('reads a YAML body and answers in YAML through apps/v1', async () => {
    const yaml = { 'content-type': 'application/yaml', accept: 'application/yaml' };
    const created = await call('POST', `${V1}/deployments`, dump(deployment('apps/v1', 'in-yaml')), yaml);
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/yaml');
    expect(load(created.text)).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment', spec: { revisionHistoryLimit: 10, selector: { matchLabels: { app: 'in-yaml' } } } });
    const list = await call('GET', `${V1}/deployments?fieldSelector=metadata.name%3Din-yaml`, undefined, yaml);
    expect(load(list.text)).toMatchObject({ apiVersion: 'apps/v1', kind: 'DeploymentList', items: [{ metadata: { name: 'in-yaml' } }] });
  });

  it('shows the same columns in kube.deployments, kube.replicasets and kube.daemonsets whichever version wrote the object', async () => {
    const strategy = { strategy: { type: 'Recreate' }, revisionHistoryLimit: 3 };
    const updateStrategy = { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } } };
    const pairs = [
      { view: 'deployments', ext: deployment('extensions/v1beta1', 'view', strategy), apps: deployment('apps/v1', 'view', strategy) },
      { view: 'replicasets', ext: replicaSet('extensions/v1beta1', 'view'), apps: replicaSet('apps/v1', 'view') },
      { view: 'daemonsets', ext: daemonSet('extensions/v1beta1', 'view', updateStrategy), apps: daemonSet('apps/v1', 'view', updateStrategy) },
    ];
    const row = (view: string, name: string) => viewColumns(server(), view, name);
    for (const { view, ext, apps } of pairs) {
      // labels given, as apps/v1 takes none from the template
      expect((await call('POST', `${EXT}/${view}`, { ...ext, metadata: { name: `${view}-ext`, labels: { app: 'view' } } })).status).toBe(201);
      expect((await call('POST', `${V1}/${view}`, { ...apps, metadata: { name: `${view}-v1`, labels: { app: 'view' } } })).status).toBe(201);
      const written = await row(view, `${view}-ext`);
      expect(written.images).toEqual(['nginx:1.27']);
      expect(await row(view, `${view}-v1`)).toEqual(written);
    }
    expect(await row('deployments', 'deployments-v1')).toMatchObject({ replicas: 2, strategy: 'Recreate', paused: false });
    expect(await row('daemonsets', 'daemonsets-v1')).toMatchObject({ update_strategy: 'RollingUpdate' });
  });
});
