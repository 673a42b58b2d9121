import { dump } from 'js-yaml';
import { useTestServer } from './support/api';
import { dbState } from './support/db-state';
import { collectionPath, itemPath, kindNamed } from './support/kinds';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// the objects, writes and events of the tests' own requests are compared exactly: no controller writes besides
const { call, server } = useTestServer([], WITHOUT_DEPLOYMENT_CONTROLLER);
const deployment = kindNamed('Deployment');
const DEPLOYMENTS = collectionPath(deployment);
const WEB = itemPath(deployment, 'web');
const APPLY = { 'content-type': 'application/apply-patch+yaml' };
const GV = 'extensions/v1beta1';

const entries = (object: any): any[] => object.metadata.managedFields ?? [];
const entryOf = (object: any, manager: string, operation = 'Update') => entries(object).find((e) => e.manager === manager && e.operation === operation);

/** A Deployment configuration as an applier writes it: only the fields it has an opinion on. */
const config = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({
  apiVersion: GV,
  kind: 'Deployment',
  metadata: { name: 'web', ...metadata },
  spec,
});

const template = (image: string) => ({
  selector: { matchLabels: { app: 'web' } },
  template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image }] } },
});

const applyAs = (manager: string, body: unknown, query = '') =>
  call('PATCH', `${WEB}?fieldManager=${manager}${query}`, typeof body === 'string' ? body : dump(body), APPLY);

beforeEach(async () => {
  await call('DELETE', `${WEB}?propagationPolicy=Background`);
});

describe('managedFields on every write', () => {
  it('a create records an Update entry for its fieldManager, or for the User-Agent product', async () => {
    const created = await call('POST', `${DEPLOYMENTS}?fieldManager=creator`, { ...deployment.manifest, metadata: { name: 'web', labels: { app: 'web' } } });
    expect(created.status).toBe(201);
    const entry = entryOf(created.json, 'creator');
    expect(entry).toMatchObject({ operation: 'Update', apiVersion: GV, fieldsType: 'FieldsV1' });
    expect(entry.fieldsV1['f:metadata']).toEqual({ 'f:labels': { '.': {}, 'f:app': {} } });
    expect(entry.fieldsV1['f:spec']['f:replicas']).toEqual({});
    expect(entry.fieldsV1).not.toHaveProperty('f:status');

    await call('DELETE', `${WEB}?propagationPolicy=Background`);
    const byAgent = await call('POST', DEPLOYMENTS, { ...deployment.manifest, metadata: { name: 'web' } }, { 'user-agent': 'my-tool/1.2 (linux) x' });
    expect(entries(byAgent.json).map((e) => e.manager)).toEqual(['my-tool']);
  });

  it('PUT, every patch type, /status and /scale record what they changed for their manager', async () => {
    await call('POST', `${DEPLOYMENTS}?fieldManager=creator`, { ...deployment.manifest, metadata: { name: 'web' } });
    const current = (await call('GET', WEB)).json;
    const put = await call('PUT', `${WEB}?fieldManager=putter`, { ...current, spec: { ...current.spec, minReadySeconds: 3 } });
    expect(entryOf(put.json, 'putter').fieldsV1).toEqual({ 'f:spec': { 'f:minReadySeconds': {} } });

    const merge = await call('PATCH', `${WEB}?fieldManager=merger`, JSON.stringify({ metadata: { annotations: { a: 'b' } } }), {
      'content-type': 'application/merge-patch+json',
    });
    expect(entryOf(merge.json, 'merger').fieldsV1).toEqual({ 'f:metadata': { 'f:annotations': { '.': {}, 'f:a': {} } } });

    const json = await call('PATCH', `${WEB}?fieldManager=jsonpatcher`, JSON.stringify([{ op: 'add', path: '/spec/paused', value: true }]), {
      'content-type': 'application/json-patch+json',
    });
    expect(entryOf(json.json, 'jsonpatcher').fieldsV1).toEqual({ 'f:spec': { 'f:paused': {} } });

    const status = await call('PATCH', `${WEB}/status?fieldManager=controller`, JSON.stringify({ status: { observedGeneration: 9 } }), {
      'content-type': 'application/strategic-merge-patch+json',
    });
    expect(status.status).toBe(200);
    const statusEntry = entryOf(status.json, 'controller');
    expect(statusEntry).toMatchObject({ subresource: 'status', fieldsV1: { 'f:status': { 'f:observedGeneration': {} } } });

    const scale = await call('PATCH', `${WEB}/scale?fieldManager=scaler`, JSON.stringify({ spec: { replicas: 4 } }), {
      'content-type': 'application/merge-patch+json',
    });
    expect(scale.status).toBe(200);
    const scaled = (await call('GET', WEB)).json;
    expect(entryOf(scaled, 'scaler')).toMatchObject({ subresource: 'scale', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
    // the field moved from its creator to the scaler
    expect(entryOf(scaled, 'creator').fieldsV1['f:spec']).not.toHaveProperty('f:replicas');
  });

  it('a write that changes nothing leaves the entries as they were', async () => {
    await call('POST', `${DEPLOYMENTS}?fieldManager=creator`, { ...deployment.manifest, metadata: { name: 'web' } });
    const current = (await call('GET', WEB)).json;
    const again = await call('PUT', `${WEB}?fieldManager=other`, current);
    expect(again.json.metadata.managedFields).toEqual(current.metadata.managedFields);
    expect(again.json.metadata.resourceVersion).toBe(current.metadata.resourceVersion);
  });

  it('an empty managedFields in a write removes them all', async () => {
    await call('POST', `${DEPLOYMENTS}?fieldManager=creator`, { ...deployment.manifest, metadata: { name: 'web' } });
    const reset = await call('PATCH', WEB, JSON.stringify({ metadata: { managedFields: [] } }), { 'content-type': 'application/merge-patch+json' });
    expect(reset.status).toBe(200);
    expect(reset.json.metadata.managedFields).toBeUndefined();
    // and an object nobody tracks stays untracked through an update
    const scaled = await call('PATCH', `${WEB}?fieldManager=x`, JSON.stringify({ spec: { replicas: 5 } }), { 'content-type': 'application/merge-patch+json' });
    expect(scaled.json.metadata.managedFields).toBeUndefined();
  });

  it('refuses force on a non-apply patch, and a field manager too long or unprintable (422 on PatchOptions)', async () => {
    await call('POST', DEPLOYMENTS, { ...deployment.manifest, metadata: { name: 'web' } });
    const forced = await call('PATCH', `${WEB}?force=true`, '{}', { 'content-type': 'application/merge-patch+json' });
    expect(forced.status).toBe(422);
    expect(forced.json).toMatchObject({ reason: 'Invalid', details: { group: 'meta.k8s.io', kind: 'PatchOptions', causes: [{ reason: 'FieldValueForbidden', field: 'force' }] } });
    const long = await call('POST', `${DEPLOYMENTS}?fieldManager=${'m'.repeat(129)}`, { ...deployment.manifest, metadata: { name: 'other' } });
    expect(long.status).toBe(422);
    expect(long.json.details).toMatchObject({ kind: 'CreateOptions', causes: [{ reason: 'FieldValueTooLong', field: 'fieldManager' }] });
    const tab = await call('PUT', `${WEB}?fieldManager=a%09b`, (await call('GET', WEB)).json);
    expect(tab.status).toBe(422);
    expect(tab.json.details.causes[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'fieldManager' });
  });
});

describe('PATCH application/apply-patch+yaml', () => {
  it('creates a missing object (201) owned by the applier, and applies again (200)', async () => {
    const created = await applyAs('alice', config({ replicas: 2, ...template('nginx:1') }));
    expect(created.status).toBe(201);
    expect(created.json.spec.replicas).toBe(2);
    expect(created.json.spec.template.spec.containers[0]).toMatchObject({ image: 'nginx:1', terminationMessagePath: '/dev/termination-log' });
    const entry = entryOf(created.json, 'alice', 'Apply');
    expect(entry).toMatchObject({ apiVersion: GV, fieldsType: 'FieldsV1' });
    expect(entry.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']).toEqual({ 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } });
    const again = await applyAs('alice', config({ replicas: 3, ...template('nginx:1') }));
    expect(again.status).toBe(200);
    expect(again.json.spec.replicas).toBe(3);
  });

  it('reads JSON as well as YAML', async () => {
    const created = await applyAs('alice', JSON.stringify(config({ replicas: 1, ...template('nginx:1') })));
    expect(created.status).toBe(201);
  });

  it('another manager applying a different value is a 409 with a cause per field; force=true takes the field', async () => {
    await applyAs('alice', config({ replicas: 2, ...template('nginx:1') }));
    const before = await dbState(server());
    const conflict = await applyAs('bob', config({ replicas: 5 }));
    expect(conflict.status).toBe(409);
    expect(conflict.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Conflict',
      code: 409,
      message: 'Apply failed with 1 conflict: conflict with "alice": .spec.replicas',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.replicas' }] },
    });
    expect(await dbState(server())).toEqual(before);
    const same = await applyAs('bob', config({ replicas: 2 }));
    expect(same.status).toBe(200);
    const forced = await applyAs('bob', config({ replicas: 5 }), '&force=true');
    expect(forced.status).toBe(200);
    expect(forced.json.spec.replicas).toBe(5);
    expect(entryOf(forced.json, 'bob', 'Apply').fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
    expect(entryOf(forced.json, 'alice', 'Apply').fieldsV1['f:spec']).not.toHaveProperty('f:replicas');
  });

  it('removes what an applier stops applying, unless another manager owns it', async () => {
    await applyAs('alice', config({ replicas: 2, minReadySeconds: 4, ...template('nginx:1') }, { labels: { a: '1', b: '2' } }));
    await applyAs('bob', config({}, { labels: { b: '2' } }));
    const next = await applyAs('alice', config({ replicas: 2, ...template('nginx:1') }));
    expect(next.status).toBe(200);
    expect(next.json.spec).not.toHaveProperty('minReadySeconds');
    expect(next.json.metadata.labels).toEqual({ b: '2' });
  });

  it('dryRun=All answers the applied object and writes nothing, created or not', async () => {
    const before = await dbState(server());
    const preview = await applyAs('alice', config({ replicas: 2, ...template('nginx:1') }), '&dryRun=All');
    expect(preview.status).toBe(201);
    expect(entryOf(preview.json, 'alice', 'Apply')).toBeDefined();
    expect(await dbState(server())).toEqual(before);
    expect((await call('GET', WEB)).status).toBe(404);
  });

  it('applies to /status and /scale, recording the subresource', async () => {
    await applyAs('alice', config({ replicas: 2, ...template('nginx:1') }));
    const status = await call('PATCH', `${WEB}/status?fieldManager=ctl`, dump({ apiVersion: GV, kind: 'Deployment', metadata: { name: 'web' }, status: { observedGeneration: 7 } }), APPLY);
    expect(status.status).toBe(200);
    expect(status.json.status.observedGeneration).toBe(7);
    expect(entryOf(status.json, 'ctl', 'Apply')).toMatchObject({ subresource: 'status', fieldsV1: { 'f:status': { 'f:observedGeneration': {} } } });

    const scaleConflict = await call('PATCH', `${WEB}/scale?fieldManager=hpa`, dump({ apiVersion: GV, kind: 'Scale', metadata: { name: 'web' }, spec: { replicas: 6 } }), APPLY);
    expect(scaleConflict.status).toBe(409);
    expect(scaleConflict.json.message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.replicas');
    const scale = await call('PATCH', `${WEB}/scale?fieldManager=hpa&force=true`, dump({ apiVersion: GV, kind: 'Scale', metadata: { name: 'web' }, spec: { replicas: 6 } }), APPLY);
    expect(scale.status).toBe(200);
    expect(scale.json).toMatchObject({ kind: 'Scale', spec: { replicas: 6 } });
    const object = (await call('GET', WEB)).json;
    expect(object.spec.replicas).toBe(6);
    expect(entryOf(object, 'hpa', 'Apply')).toMatchObject({ subresource: 'scale', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
  });

  it('refuses an apply without fieldManager, of another kind, with managedFields, or that is not YAML', async () => {
    const noManager = await call('PATCH', WEB, dump(config({})), APPLY);
    expect(noManager.status).toBe(422);
    expect(noManager.json.details.causes).toEqual([{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }]);
    const otherKind = await applyAs('a', { apiVersion: GV, kind: 'ReplicaSet', metadata: { name: 'web' } });
    expect(otherKind).toMatchObject({ status: 400, json: { message: 'invalid object type: extensions/v1beta1, Kind=ReplicaSet' } });
    const noKind = await applyAs('a', { metadata: { name: 'web' } });
    expect(noKind).toMatchObject({ status: 400, json: { message: 'invalid object type: /, Kind=' } });
    const managed = await applyAs('a', config({}, { managedFields: [{ manager: 'x' }] }));
    expect(managed).toMatchObject({ status: 400, json: { message: 'metadata.managedFields must be nil' } });
    const broken = await applyAs('a', 'a: [');
    expect(broken.status).toBe(400);
    expect(broken.json.message).toMatch(/^error decoding YAML: /);
    const otherName = await applyAs('a', config({}, { name: 'other' }));
    expect(otherName.status).toBe(400);
  });

  it('is one of the patch types a 415 lists', async () => {
    await applyAs('alice', config({ replicas: 2, ...template('nginx:1') }));
    const unknown = await call('PATCH', WEB, '{}', { 'content-type': 'application/x-unknown' });
    expect(unknown.status).toBe(415);
    expect(unknown.json.message).toContain('application/apply-patch+yaml');
  });
});
