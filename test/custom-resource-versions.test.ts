import { useTestServer } from './support/api';
import { until } from './support/until';
import { WatchClient } from './support/watch-client';

/**
 * A CustomResourceDefinition with two versions and the None conversion: one stored object, read in either version
 * with only its apiVersion rewritten, stored in the storage version whichever version wrote it.
 */
const { call, server } = useTestServer();

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const NAME = 'widgets.none.example.com';
const path = (version: string, name = '') => `/apis/none.example.com/${version}/namespaces/default/widgets${name && `/${name}`}`;
const MERGE = { 'content-type': 'application/merge-patch+json' };
const SCHEMA = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } };

const definition = (storage: 'v1' | 'v1beta1') => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: NAME },
  spec: {
    group: 'none.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      { name: 'v1', served: true, storage: storage === 'v1', schema: SCHEMA },
      { name: 'v1beta1', served: true, storage: storage === 'v1beta1', schema: SCHEMA },
    ],
  },
});

const widget = (version: string, name: string, spec: Record<string, unknown>) => ({
  apiVersion: `none.example.com/${version}`,
  kind: 'Widget',
  metadata: { name },
  spec,
});

const storedApiVersion = async (name: string) =>
  (await server().sql(`SELECT body->>'apiVersion' AS v FROM objects WHERE api_group = 'none.example.com' AND name = $1`, [name]))[0]?.v;

/** Waits until the definition's versions are served as it now says (after a create or an update). */
async function servedWith(storage: string) {
  for (let i = 0; i < 100; i++) {
    const crd = (await call('GET', `${CRDS}/${NAME}`)).json;
    const list = await call('GET', path('v1'));
    if (list.status === 200 && crd.status?.storedVersions?.includes(storage)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a custom resource served in two versions with the None conversion', () => {
  beforeAll(async () => {
    expect((await call('POST', CRDS, definition('v1beta1'))).status).toBe(201);
    await servedWith('v1beta1');
  });
  afterAll(async () => {
    await call('DELETE', `${CRDS}/${NAME}`);
    await until(async () => (await call('GET', `${CRDS}/${NAME}`)).status === 404);
  });

  it('stores an object created in v1beta1 in the storage version and reads, lists and watches it in v1', async () => {
    const list0 = await call('GET', path('v1'));
    const watch = await WatchClient.open(server().url, `${path('v1')}?watch=1&resourceVersion=${list0.json.metadata.resourceVersion}`);
    try {
      const created = await call('POST', path('v1'), widget('v1', 'first', { size: 1 }));
      expect(created.status).toBe(201);
      expect(created.json.apiVersion).toBe('none.example.com/v1');
      expect(await storedApiVersion('first')).toBe('none.example.com/v1beta1');
      const read = await call('GET', path('v1beta1', 'first'));
      expect(read.json).toMatchObject({ apiVersion: 'none.example.com/v1beta1', kind: 'Widget', spec: { size: 1 } });
      expect(read.json.metadata.uid).toBe(created.json.metadata.uid);
      const list = await call('GET', path('v1'));
      expect(list.json).toMatchObject({ apiVersion: 'none.example.com/v1', kind: 'WidgetList' });
      expect(list.json.items[0]).toMatchObject({ apiVersion: 'none.example.com/v1', metadata: { name: 'first' } });
      await call('POST', path('v1beta1'), widget('v1beta1', 'second', { size: 2 }));
      await watch.count(2);
      expect(watch.events.map((e) => [e.type, e.object.apiVersion, e.object.metadata.name])).toEqual([
        ['ADDED', 'none.example.com/v1', 'first'],
        ['ADDED', 'none.example.com/v1', 'second'],
      ]);
    } finally {
      watch.close();
    }
  });

  it('patches, applies and dry-runs in either version, answering in the requested one', async () => {
    const patched = await call('PATCH', path('v1', 'second'), { spec: { size: 3 } }, MERGE);
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ apiVersion: 'none.example.com/v1', spec: { size: 3 } });
    const applied = await call('PATCH', `${path('v1', 'third')}?fieldManager=tester`, widget('v1', 'third', { size: 4 }), {
      'content-type': 'application/apply-patch+yaml',
    });
    expect(applied.status).toBe(201);
    expect(applied.json.metadata.managedFields[0]).toMatchObject({ manager: 'tester', apiVersion: 'none.example.com/v1' });
    expect(await storedApiVersion('third')).toBe('none.example.com/v1beta1');
    const dry = await call('POST', `${path('v1')}?dryRun=All`, widget('v1', 'dry', { size: 5 }));
    expect(dry.status).toBe(201);
    expect(dry.json.apiVersion).toBe('none.example.com/v1');
    expect(await storedApiVersion('dry')).toBeUndefined();
    const table = await call('GET', `${path('v1')}?includeObject=Object`, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.json.rows.map((r: any) => r.object.apiVersion)).toEqual(['none.example.com/v1', 'none.example.com/v1', 'none.example.com/v1']);
  });

  it('keeps objects stored in the earlier storage version readable in every version after the storage version changes', async () => {
    const crd = (await call('GET', `${CRDS}/${NAME}`)).json;
    crd.spec.versions = definition('v1').spec.versions;
    expect((await call('PUT', `${CRDS}/${NAME}`, crd)).status).toBe(200);
    await servedWith('v1');
    expect((await call('GET', `${CRDS}/${NAME}`)).json.status.storedVersions).toEqual(['v1beta1', 'v1']);
    for (const version of ['v1', 'v1beta1']) {
      const read = await call('GET', path(version, 'first'));
      expect(read.json).toMatchObject({ apiVersion: `none.example.com/${version}`, spec: { size: 1 } });
    }
    expect(await storedApiVersion('first')).toBe('none.example.com/v1beta1');
    const updated = await call('PATCH', path('v1beta1', 'first'), { spec: { size: 9 } }, MERGE);
    expect(updated.json.apiVersion).toBe('none.example.com/v1beta1');
    expect(await storedApiVersion('first')).toBe('none.example.com/v1');
  });
});
