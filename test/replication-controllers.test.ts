import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { useTestServer } from './support/api';

const { call } = useTestServer();
const manifest: any = load(readFileSync(join(__dirname, 'fixtures', 'replicationcontroller.yaml'), 'utf8'));
const RCS = '/api/v1/namespaces/default/replicationcontrollers';

describe('core v1 discovery', () => {
  it('lists v1 under /api and ReplicationControllers with their subresources under /api/v1', async () => {
    const versions = await call('GET', '/api');
    expect(versions.json.versions).toEqual(['v1']);
    const list = await call('GET', '/api/v1');
    expect(list.status).toBe(200);
    expect(list.json.kind).toBe('APIResourceList');
    expect(list.json.apiVersion).toBeUndefined();
    expect(list.json.groupVersion).toBe('v1');
    expect(list.json.resources.filter((r: any) => r.name.startsWith('replicationcontrollers'))).toEqual([
      {
        name: 'replicationcontrollers',
        singularName: '',
        namespaced: true,
        kind: 'ReplicationController',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        shortNames: ['rc'],
        categories: ['all'],
      },
      // later apiservers name the Scale's group version, which kubectl's scale client needs
      { name: 'replicationcontrollers/scale', singularName: '', namespaced: true, kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] },
      { name: 'replicationcontrollers/status', singularName: '', namespaced: true, kind: 'ReplicationController', verbs: ['get', 'patch', 'update'] },
    ]);
  });

  it('keeps the extensions placeholder without verbs, its scale in its own group version', async () => {
    const list = await call('GET', '/apis/extensions/v1beta1');
    const entries = list.json.resources.filter((r: any) => r.name.startsWith('replicationcontrollers'));
    expect(entries).toEqual([
      { name: 'replicationcontrollers', singularName: '', namespaced: true, kind: 'ReplicationControllerDummy', verbs: [] },
      { name: 'replicationcontrollers/scale', singularName: '', namespaced: true, kind: 'Scale', verbs: ['get', 'patch', 'update'] },
    ]);
    expect((await call('GET', '/apis')).json.groups.map((g: any) => g.name)).not.toContain('');
  });
});

describe('ReplicationController', () => {
  afterEach(() => call('DELETE', `${RCS}/z?propagationPolicy=Background`));

  it('creates with defaults, reads, lists, replaces and deletes', async () => {
    const created = await call('POST', RCS, manifest);
    expect(created.status).toBe(201);
    expect(created.json.apiVersion).toBe('v1');
    expect(created.json.metadata).toMatchObject({ name: 'z', namespace: 'default', generation: 1, labels: { app: 'z' } });
    expect(created.json.metadata.selfLink).toBe(`${RCS}/z`);
    expect(created.json.spec.selector).toEqual({ app: 'z' });
    expect(created.json.spec.template.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' });
    expect(created.json.status).toEqual({ replicas: 0 });

    expect((await call('GET', `${RCS}/z`)).json).toEqual(created.json);
    const list = await call('GET', RCS);
    expect(list.json.kind).toBe('ReplicationControllerList');
    expect(list.json.items.map((i: any) => i.metadata.name)).toEqual(['z']);
    expect((await call('GET', '/api/v1/replicationcontrollers')).json.items).toHaveLength(1);

    const replaced = await call('PUT', `${RCS}/z`, { ...created.json, spec: { ...created.json.spec, replicas: 2 } });
    expect(replaced.status).toBe(200);
    expect(replaced.json.metadata.generation).toBe(2);

    const removed = await call('DELETE', `${RCS}/z?propagationPolicy=Background`);
    expect(removed.status).toBe(200);
    expect(removed.json.details).toEqual({ name: 'z', kind: 'replicationcontrollers', uid: created.json.metadata.uid });
    const gone = await call('GET', `${RCS}/z`);
    expect(gone.status).toBe(404);
    expect(gone.json.message).toBe('replicationcontrollers "z" not found');
    expect(gone.json.details).toEqual({ name: 'z', kind: 'replicationcontrollers' });
  });

  it('orphans its dependents by default, as 1.7 did', async () => {
    await call('POST', RCS, manifest);
    const marked = await call('DELETE', `${RCS}/z`);
    expect(marked.status).toBe(200);
    expect(marked.json.kind).toBe('ReplicationController');
    expect(marked.json.metadata.finalizers).toEqual(['orphan']);
    expect(marked.json.metadata.deletionTimestamp).toBeDefined();
  });

  it('deletes a collection', async () => {
    await call('POST', RCS, manifest);
    const removed = await call('DELETE', RCS, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
    expect(removed.status).toBe(200);
    expect(removed.json.items.map((i: any) => i.metadata.name)).toEqual(['z']);
    expect((await call('GET', RCS)).json.items).toEqual([]);
  });

  it('splits status from spec on /status', async () => {
    const created = await call('POST', RCS, manifest);
    const written = await call('PUT', `${RCS}/z/status`, { ...created.json, spec: { ...created.json.spec, replicas: 9 }, status: { replicas: 1, readyReplicas: 1 } });
    expect(written.status).toBe(200);
    expect(written.json.status).toEqual({ replicas: 1, readyReplicas: 1 });
    expect(written.json.spec.replicas).toBe(1);
    expect(written.json.metadata.generation).toBe(1);
    const bad = await call('PUT', `${RCS}/z/status`, { ...written.json, status: { replicas: 1, readyReplicas: 2 } });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toContain('status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas');
  });

  it.each([
    ['no template', { template: undefined, selector: { app: 'z' } }, 'spec.template', 'Required value'],
    ['no selector and no template labels', { selector: undefined, template: { spec: manifest.spec.template.spec } }, 'spec.selector', 'Required value'],
    ['a selector the template does not match', { selector: { app: 'other' } }, 'spec.template.metadata.labels', '`selector` does not match template `labels`'],
    ['negative replicas', { replicas: -1 }, 'spec.replicas', 'Invalid value: -1: must be greater than or equal to 0'],
    ['a template that may restart never', { template: { ...manifest.spec.template, spec: { ...manifest.spec.template.spec, restartPolicy: 'Never' } } }, 'spec.template.spec.restartPolicy', 'Unsupported value: "Never": supported values: "Always"'],
  ])('refuses %s with 422', async (_case, spec, field, message) => {
    const response = await call('POST', RCS, { ...manifest, spec: { ...manifest.spec, ...spec } });
    expect(response.status).toBe(422);
    expect(response.json.message).toMatch(/^ReplicationController "z" is invalid: /);
    expect(response.json.details.causes).toContainEqual(expect.objectContaining({ field, message: expect.stringContaining(message) }));
  });
});
