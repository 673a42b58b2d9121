import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { collectionPath, itemPath, kindNamed as kind } from './support/kinds';
import { useTestServer } from './support/api';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// the objects and versions of the tests' own writes are compared exactly: no controller writes besides
const { call } = useTestServer([], WITHOUT_DEPLOYMENT_CONTROLLER);

const RC_MANIFEST: any = load(readFileSync(join(__dirname, 'fixtures', 'replicationcontroller.yaml'), 'utf8'));
const RC_PATH = '/api/v1/namespaces/default/replicationcontrollers';
const EXTENSIONS = '/apis/extensions/v1beta1/namespaces/default';

/** Each scalable object: where it lives, where its Scale is, and which Scale it is. */
const SCALABLE = [
  {
    name: 'deployments',
    create: () => call('POST', collectionPath(kind('Deployment')), kind('Deployment').manifest),
    object: itemPath(kind('Deployment'), 'web'),
    scale: `${itemPath(kind('Deployment'), 'web')}/scale`,
    apiVersion: 'extensions/v1beta1',
    status: { replicas: 0, selector: { app: 'web' }, targetSelector: 'app=web' },
    notFound: 'deployments/scale.extensions',
  },
  {
    name: 'replicasets',
    create: () => call('POST', collectionPath(kind('ReplicaSet')), kind('ReplicaSet').manifest),
    object: itemPath(kind('ReplicaSet'), 'web-1'),
    scale: `${itemPath(kind('ReplicaSet'), 'web-1')}/scale`,
    apiVersion: 'extensions/v1beta1',
    status: { replicas: 0, selector: { app: 'web' }, targetSelector: 'app=web' },
    notFound: 'replicasets/scale.extensions',
  },
  {
    name: 'core replicationcontrollers',
    create: () => call('POST', RC_PATH, RC_MANIFEST),
    object: `${RC_PATH}/z`,
    scale: `${RC_PATH}/z/scale`,
    apiVersion: 'autoscaling/v1',
    status: { replicas: 0, selector: 'app=z' },
    notFound: 'replicationcontrollers/scale.autoscaling',
  },
  {
    name: "extensions' replicationcontrollers view",
    create: () => call('POST', RC_PATH, RC_MANIFEST),
    object: `${RC_PATH}/z`,
    scale: `${EXTENSIONS}/replicationcontrollers/z/scale`,
    apiVersion: 'extensions/v1beta1',
    status: { replicas: 0, selector: { app: 'z' }, targetSelector: 'app=z' },
    notFound: 'replicationcontrollers/scale.extensions',
  },
];

describe.each(SCALABLE)('scale of $name', (c) => {
  afterEach(() => call('DELETE', `${c.object}?propagationPolicy=Background`));

  it('reads the Scale of the object', async () => {
    const created = await c.create();
    expect(created.status).toBe(201);
    const scale = await call('GET', c.scale);
    expect(scale.status).toBe(200);
    const meta = created.json.metadata;
    expect(scale.json).toEqual({
      kind: 'Scale',
      apiVersion: c.apiVersion,
      metadata: {
        name: meta.name,
        namespace: 'default',
        selfLink: c.scale,
        uid: meta.uid,
        resourceVersion: meta.resourceVersion,
        creationTimestamp: meta.creationTimestamp,
      },
      spec: { replicas: created.json.spec.replicas },
      status: c.status,
    });
  });

  it('writes spec.replicas through the object, visible on both paths, with a new generation', async () => {
    const created = await c.create();
    const scale = (await call('GET', c.scale)).json;
    const written = await call('PUT', c.scale, { ...scale, spec: { replicas: 5 } });
    expect(written.status).toBe(200);
    expect(written.json.spec).toEqual({ replicas: 5 });
    expect(written.json.metadata.selfLink).toBe(c.scale);
    const object = await call('GET', c.object);
    expect(object.json.spec.replicas).toBe(5);
    expect(object.json.metadata.generation).toBe(created.json.metadata.generation + 1);
    expect(written.json.metadata.resourceVersion).toBe(object.json.metadata.resourceVersion);
    expect((await call('GET', c.scale)).json.spec).toEqual({ replicas: 5 });
  });

  it('writes zero replicas as an empty spec, and a body without a resourceVersion unconditionally', async () => {
    await c.create();
    const written = await call('PUT', c.scale, { metadata: { name: c.object.split('/').pop() }, spec: { replicas: 0 } });
    expect(written.status).toBe(200);
    expect(written.json.spec).toEqual({});
    expect((await call('GET', c.object)).json.spec.replicas).toBe(0);
  });

  it.each([
    ['application/merge-patch+json', { spec: { replicas: 3 } }],
    ['application/strategic-merge-patch+json', { spec: { replicas: 3 } }],
    ['application/json-patch+json', [{ op: 'add', path: '/spec/replicas', value: 3 }]],
  ])('applies a %s PATCH to the Scale and writes it through the object', async (type, body) => {
    await c.create();
    const response = await call('PATCH', c.scale, JSON.stringify(body), { 'content-type': type });
    expect(response.status).toBe(200);
    expect(response.json.kind).toBe('Scale');
    expect(response.json.apiVersion).toBe(c.apiVersion);
    expect(response.json.spec).toEqual({ replicas: 3 });
    expect((await call('GET', c.object)).json.spec.replicas).toBe(3);
  });

  it('takes a resourceVersion in a PATCH as a precondition, and validates the patched Scale', async () => {
    const created = await c.create();
    const patch = (body: unknown) => call('PATCH', c.scale, JSON.stringify(body), { 'content-type': 'application/merge-patch+json' });
    const version = created.json.metadata.resourceVersion;
    expect((await patch({ metadata: { resourceVersion: version }, spec: { replicas: 6 } })).status).toBe(200);
    const stale = await patch({ metadata: { resourceVersion: version }, spec: { replicas: 4 } });
    expect(stale.status).toBe(409);
    expect((await patch({ spec: { replicas: -2 } })).status).toBe(422);
    expect((await patch({ metadata: { name: 'renamed' } })).status).toBe(400);
    expect((await call('GET', c.object)).json.spec.replicas).toBe(6);
  });

  it('refuses a negative count with 422 on the Scale, changing nothing', async () => {
    const created = await c.create();
    const scale = (await call('GET', c.scale)).json;
    const response = await call('PUT', c.scale, { ...scale, spec: { replicas: -1 } });
    expect(response.status).toBe(422);
    expect(response.json.message).toBe(`Scale.${c.apiVersion.split('/')[0]} "${scale.metadata.name}" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`);
    expect((await call('GET', c.object)).json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
  });

  it('answers 404 on <resource>/scale for a missing object', async () => {
    const path = c.scale.replace(/\/[^/]+\/scale$/, '/missing/scale');
    for (const response of [await call('GET', path), await call('PUT', path, { metadata: { name: 'missing' }, spec: { replicas: 1 } })]) {
      expect(response.status).toBe(404);
      expect(response.json.message).toBe(`${c.notFound} "missing" not found`);
      expect(response.json.details.kind).toBe(c.notFound.split('.')[0]);
    }
  });

  it('refuses export with 400, as on every subresource', async () => {
    await c.create();
    const response = await call('GET', `${c.scale}?export=true`);
    expect(response.status).toBe(400);
    expect(response.json.message).toMatch(/^export of "[a-z]+" is not supported$/);
  });

  it('refuses a body naming another object with 400', async () => {
    await c.create();
    const response = await call('PUT', c.scale, { metadata: { name: 'other' }, spec: { replicas: 2 } });
    expect(response.status).toBe(400);
  });
});

describe('scale preconditions', () => {
  it('a stale resourceVersion gives 409 on the parent', async () => {
    const k = kind('Deployment');
    await call('POST', collectionPath(k), k.manifest);
    const scale = (await call('GET', `${itemPath(k, 'web')}/scale`)).json;
    await call('PUT', `${itemPath(k, 'web')}/scale`, { ...scale, spec: { replicas: 3 } });
    const stale = await call('PUT', `${itemPath(k, 'web')}/scale`, { ...scale, spec: { replicas: 4 } });
    expect(stale.status).toBe(409);
    expect(stale.json.message).toBe(
      'Operation cannot be fulfilled on deployments.extensions "web": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect((await call('GET', itemPath(k, 'web'))).json.spec.replicas).toBe(3);
    await call('DELETE', `${itemPath(k, 'web')}?propagationPolicy=Background`);
  });

  it("extensions' ReplicationController view answers a failed write with 409 on replicationcontrollers/scale", async () => {
    await call('POST', RC_PATH, RC_MANIFEST);
    const path = `${EXTENSIONS}/replicationcontrollers/z/scale`;
    const scale = (await call('GET', path)).json;
    await call('PUT', path, { ...scale, spec: { replicas: 2 } });
    const stale = await call('PUT', path, scale);
    expect(stale.status).toBe(409);
    expect(stale.json.message).toMatch(/^Operation cannot be fulfilled on replicationcontrollers\/scale\.extensions "z": /);
    expect(stale.json.details).toEqual({ name: 'z', group: 'extensions', kind: 'replicationcontrollers/scale' });
    await call('DELETE', `${RC_PATH}/z?propagationPolicy=Background`);
  });

  it('shows a selector with expressions only as text', async () => {
    const k = kind('ReplicaSet');
    const manifest = structuredClone(k.manifest);
    manifest.spec.selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] };
    manifest.spec.template.metadata.labels = { app: 'web', tier: 'a' };
    expect((await call('POST', collectionPath(k), manifest)).status).toBe(201);
    const scale = await call('GET', `${itemPath(k, 'web-1')}/scale`);
    expect(scale.json.status).toEqual({ replicas: 0, targetSelector: 'app=web,tier in (a,b)' });
    await call('DELETE', `${itemPath(k, 'web-1')}?propagationPolicy=Background`);
  });

  it('serves no scale for kinds without one, and no object paths on the placeholder', async () => {
    expect((await call('GET', `${itemPath(kind('DaemonSet'), 'agent')}/scale`)).status).toBe(404);
    expect((await call('GET', `${EXTENSIONS}/replicationcontrollers/z`)).status).toBe(404);
    expect((await call('DELETE', `${EXTENSIONS}/replicationcontrollers/z/scale`)).status).toBe(405);
  });
});
