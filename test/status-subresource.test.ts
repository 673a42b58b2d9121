import { collectionPath, itemPath, kindNamed as kind } from './support/kinds';
import { useTestServer } from './support/api';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

const { call } = useTestServer([], WITHOUT_DEPLOYMENT_CONTROLLER);

/** A status each kind accepts, and a spec change each kind accepts. */
const CASES = [
  { kind: 'Deployment', status: { replicas: 2, updatedReplicas: 2, readyReplicas: 1, availableReplicas: 1 }, spec: { replicas: 7 } },
  { kind: 'ReplicaSet', status: { replicas: 1, readyReplicas: 1, availableReplicas: 1 }, spec: { replicas: 4 } },
  { kind: 'DaemonSet', status: { currentNumberScheduled: 3, desiredNumberScheduled: 3, numberReady: 2 }, spec: { minReadySeconds: 5 } },
  { kind: 'Ingress', status: { loadBalancer: { ingress: [{ ip: '10.0.0.1' }] } }, spec: { backend: { serviceName: 'other', servicePort: 8080 } } },
];

describe.each(CASES)('$kind /status', (c) => {
  const k = kind(c.kind);
  const name = k.manifest.metadata.name;

  afterEach(() => call('DELETE', `${itemPath(k, name)}?propagationPolicy=Background`));

  it('serves the whole object on GET, with the status selfLink', async () => {
    const created = await call('POST', collectionPath(k), k.manifest);
    const got = await call('GET', `${itemPath(k, name)}/status`);
    expect(got.status).toBe(200);
    expect(got.json.kind).toBe(k.kind);
    expect(got.json.metadata.selfLink).toBe(`${itemPath(k, name)}/status`);
    expect(got.json.spec).toEqual(created.json.spec);
    expect(got.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
  });

  it('changes only the status on PUT /status, without a new generation', async () => {
    const created = await call('POST', collectionPath(k), k.manifest);
    const body = structuredClone(created.json);
    body.spec = { ...body.spec, ...c.spec };
    body.status = c.status;
    const written = await call('PUT', `${itemPath(k, name)}/status`, body);
    expect(written.status).toBe(200);
    expect(written.json.metadata.selfLink).toBe(`${itemPath(k, name)}/status`);
    expect(written.json.status).toMatchObject(c.status);
    expect(written.json.spec).toEqual(created.json.spec);
    expect(written.json.metadata.generation).toBe(created.json.metadata.generation);
    const stored = await call('GET', itemPath(k, name));
    expect(stored.json.status).toMatchObject(c.status);
    expect(stored.json.spec).toEqual(created.json.spec);
  });

  it('keeps the stored status on a main PUT, and bumps the generation for the spec change', async () => {
    const created = await call('POST', collectionPath(k), k.manifest);
    const withStatus = structuredClone(created.json);
    withStatus.status = c.status;
    const statusWritten = await call('PUT', `${itemPath(k, name)}/status`, withStatus);
    const body = structuredClone(statusWritten.json);
    body.spec = { ...body.spec, ...c.spec };
    body.status = {};
    const replaced = await call('PUT', itemPath(k, name), body);
    expect(replaced.status).toBe(200);
    expect(replaced.json.status).toEqual(statusWritten.json.status);
    expect(replaced.json.spec).toMatchObject(c.spec);
    expect(replaced.json.metadata.generation).toBe(created.json.metadata.generation + 1);
  });

  it('resets the status on create', async () => {
    const created = await call('POST', collectionPath(k), { ...k.manifest, status: c.status });
    expect(created.status).toBe(201);
    expect(created.json.status).not.toMatchObject(c.status);
  });

  it.each([
    ['application/merge-patch+json', (status: object, spec: object) => ({ spec, status })],
    ['application/strategic-merge-patch+json', (status: object, spec: object) => ({ spec, status })],
    ['application/json-patch+json', (status: object) => [{ op: 'replace', path: '/status', value: status }]],
  ])('applies a %s PATCH to /status, changing only the status', async (type, body) => {
    const created = await call('POST', collectionPath(k), k.manifest);
    const response = await call('PATCH', `${itemPath(k, name)}/status`, JSON.stringify(body(c.status, c.spec)), { 'content-type': type });
    expect(response.status).toBe(200);
    expect(response.json.metadata.selfLink).toBe(`${itemPath(k, name)}/status`);
    expect(response.json.status).toMatchObject(c.status);
    expect(response.json.spec).toEqual(created.json.spec);
    expect(response.json.metadata.generation).toBe(created.json.metadata.generation);
    expect((await call('GET', itemPath(k, name))).json.status).toMatchObject(c.status);
  });

  it('refuses a stale resourceVersion on PUT /status with 409', async () => {
    const created = await call('POST', collectionPath(k), k.manifest);
    await call('PUT', `${itemPath(k, name)}/status`, { ...created.json, status: c.status });
    const stale = await call('PUT', `${itemPath(k, name)}/status`, created.json);
    expect(stale.status).toBe(409);
    expect(stale.json.reason).toBe('Conflict');
  });

  it('answers 404 for a missing object and 400 for export', async () => {
    const missing = await call('GET', `${itemPath(k, 'nothing-here')}/status`);
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe(`${k.resource}.extensions "nothing-here" not found`);
    const exported = await call('GET', `${itemPath(k, 'nothing-here')}/status?export=1`);
    expect(exported.status).toBe(400);
    expect(exported.json.message).toBe(`export of "${k.resource}" is not supported`);
  });
});

describe('status of particular kinds', () => {
  it('Deployment: a status write keeps the stored labels but takes annotations', async () => {
    const k = kind('Deployment');
    const created = await call('POST', collectionPath(k), k.manifest);
    const body = structuredClone(created.json);
    body.metadata.labels = { other: 'label' };
    body.metadata.annotations = { note: 'from status' };
    const written = await call('PUT', `${itemPath(k, 'web')}/status`, body);
    expect(written.json.metadata.labels).toEqual(created.json.metadata.labels);
    expect(written.json.metadata.annotations).toEqual({ note: 'from status' });
    expect(written.json.metadata.generation).toBe(1);
    await call('DELETE', `${itemPath(k, 'web')}?propagationPolicy=Background`);
  });

  it('ReplicaSet: a status write may change the labels', async () => {
    const k = kind('ReplicaSet');
    const created = await call('POST', collectionPath(k), k.manifest);
    const written = await call('PUT', `${itemPath(k, 'web-1')}/status`, { ...created.json, metadata: { ...created.json.metadata, labels: { app: 'web', extra: 'x' } } });
    expect(written.json.metadata.labels).toEqual({ app: 'web', extra: 'x' });
    await call('DELETE', `${itemPath(k, 'web-1')}?propagationPolicy=Background`);
  });

  it.each([
    ['Deployment', { replicas: 1, updatedReplicas: 2 }, 'status.updatedReplicas', 'Invalid value: 2: cannot be greater than status.replicas'],
    ['Deployment', { replicas: 2, readyReplicas: 1, availableReplicas: 2 }, 'status.availableReplicas', 'Invalid value: 2: cannot be greater than readyReplicas'],
    ['Deployment', { replicas: -1 }, 'status.replicas', 'Invalid value: -1: must be greater than or equal to 0'],
    ['ReplicaSet', { replicas: 1, fullyLabeledReplicas: 2 }, 'status.fullyLabeledReplicas', 'Invalid value: 2: cannot be greater than status.replicas'],
    ['ReplicaSet', { replicas: 1, readyReplicas: 0, availableReplicas: 1 }, 'status.availableReplicas', 'Invalid value: 1: cannot be greater than readyReplicas'],
    ['DaemonSet', { numberReady: -2 }, 'status.numberReady', 'Invalid value: -2: must be greater than or equal to 0'],
    ['Ingress', { loadBalancer: { ingress: [{ ip: 'not-an-ip' }] } }, 'status.loadBalancer.ingress[0].ip', 'Invalid value: "not-an-ip": must be a valid IP address'],
    ['Ingress', { loadBalancer: { ingress: [{ hostname: '10.1.1.1' }] } }, 'status.loadBalancer.ingress[0].hostname', 'Invalid value: "10.1.1.1": must be a DNS name, not an IP address'],
  ])('%s: refuses the status %j with 422 at %s', async (kindName, status, field, message) => {
    const k = kind(kindName);
    const name = k.manifest.metadata.name;
    const created = await call('POST', collectionPath(k), k.manifest);
    const response = await call('PUT', `${itemPath(k, name)}/status`, { ...created.json, status });
    expect(response.status).toBe(422);
    expect(response.json.details.causes).toContainEqual(expect.objectContaining({ field, message }));
    const stored = await call('GET', itemPath(k, name));
    expect(stored.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
    await call('DELETE', `${itemPath(k, name)}?propagationPolicy=Background`);
  });

  it('DaemonSet: a fresh status carries the counters Go always writes', async () => {
    const k = kind('DaemonSet');
    const created = await call('POST', collectionPath(k), k.manifest);
    expect(created.json.status).toEqual({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
    const written = await call('PUT', `${itemPath(k, 'agent')}/status`, { ...created.json, status: { numberReady: 0, numberAvailable: 1 } });
    expect(written.json.status).toEqual({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0, numberAvailable: 1 });
    await call('DELETE', `${itemPath(k, 'agent')}?propagationPolicy=Background`);
  });
});

describe('federation Cluster /status', () => {
  const k = kind('Cluster');
  const status = { conditions: [{ type: 'Ready', status: 'True' }], zones: ['us-east1-b'], region: 'us-east1' };

  it('is PUT only: GET and PATCH answer 405', async () => {
    await call('POST', collectionPath(k), k.manifest);
    const got = await call('GET', `${itemPath(k, 'us-east')}/status`);
    expect(got.status).toBe(405);
    expect(got.json.reason).toBe('MethodNotAllowed');
    const patched = await call('PATCH', `${itemPath(k, 'us-east')}/status`, JSON.stringify({ status }), {
      'content-type': 'application/merge-patch+json',
    });
    expect(patched.status).toBe(405);
    await call('DELETE', itemPath(k, 'us-east'));
  });

  it('replaces the status on PUT and keeps the spec; a main PUT keeps the status', async () => {
    const created = await call('POST', collectionPath(k), k.manifest);
    const body = structuredClone(created.json);
    body.spec.serverAddressByClientCIDRs = [];
    body.status = status;
    const written = await call('PUT', `${itemPath(k, 'us-east')}/status`, body);
    expect(written.status).toBe(200);
    expect(written.json.status).toEqual(status);
    expect(written.json.spec).toEqual(created.json.spec);
    const replaced = await call('PUT', itemPath(k, 'us-east'), { ...written.json, status: {} });
    expect(replaced.json.status).toEqual(status);
    await call('DELETE', itemPath(k, 'us-east'));
  });
});
