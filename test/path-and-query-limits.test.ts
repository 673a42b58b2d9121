import { useTestServer } from './support/api';
import { dbState } from './support/db-state';
import { collectionPath, itemPath, kindNamed } from './support/kinds';
import { expectFailure } from './support/status';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

/**
 * Names, namespaces and selector values PostgreSQL cannot hold (a NUL), bytes that are no UTF-8, over-long segments,
 * and integers beyond the int32 the contract gives: each is a 4xx Status, never a 500, and writes nothing.
 */
// what the tests' own requests wrote is compared with the whole database: no controller writes besides
const { call, server } = useTestServer([], WITHOUT_DEPLOYMENT_CONTROLLER);
const deployment = kindNamed('Deployment');
const DEPLOYMENTS = collectionPath(deployment);
const IN_NUL_NAMESPACE = '/apis/extensions/v1beta1/namespaces/a%00/deployments';
const LONG = 'a'.repeat(5000);
const NUL_NAME = /^deployments\.extensions "a\u0000" not found$/;

interface Case {
  title: string;
  method: string;
  path: string;
  body?: unknown;
  code: number;
  message?: RegExp;
}

const cases: Case[] = [
  // a NUL in a name or namespace: no stored object can have one, so the object is not found, as the apiserver says
  { title: 'GET of a name with a NUL', method: 'GET', path: itemPath(deployment, 'a%00'), code: 404, message: NUL_NAME },
  { title: 'DELETE of a name with a NUL', method: 'DELETE', path: itemPath(deployment, 'a%00'), code: 404, message: NUL_NAME },
  {
    title: 'PATCH of a name with a NUL',
    method: 'PATCH',
    path: itemPath(deployment, 'a%00'),
    body: '{"spec":{}}',
    code: 404,
    message: NUL_NAME,
  },
  { title: 'GET of the status of a name with a NUL', method: 'GET', path: `${itemPath(deployment, 'a%00')}/status`, code: 404 },
  { title: 'GET of the scale of a name with a NUL', method: 'GET', path: `${itemPath(deployment, 'a%00')}/scale`, code: 404 },
  { title: 'GET of an object in a namespace with a NUL', method: 'GET', path: `${IN_NUL_NAMESPACE}/web`, code: 404 },
  { title: 'PUT of an object in a namespace with a NUL', method: 'PUT', path: `${IN_NUL_NAMESPACE}/web`, body: deployment.manifest, code: 404 },
  // a collection in a namespace with a NUL, and selector values with one, cannot be compared in SQL
  { title: 'a list in a namespace with a NUL', method: 'GET', path: IN_NUL_NAMESPACE, code: 400, message: /NUL character/ },
  { title: 'a delete-collection in a namespace with a NUL', method: 'DELETE', path: IN_NUL_NAMESPACE, code: 400 },
  { title: 'a watch in a namespace with a NUL', method: 'GET', path: `${IN_NUL_NAMESPACE}?watch=1`, code: 400 },
  { title: 'a create in a namespace with a NUL', method: 'POST', path: IN_NUL_NAMESPACE, body: deployment.manifest, code: 422 },
  { title: 'a field selector value with a NUL', method: 'GET', path: `${DEPLOYMENTS}?fieldSelector=metadata.name%3Da%00`, code: 400 },
  { title: 'a field selector namespace with a NUL', method: 'GET', path: `${DEPLOYMENTS}?fieldSelector=metadata.namespace%3D%00`, code: 400 },
  { title: 'a label selector value with a NUL', method: 'GET', path: `${DEPLOYMENTS}?labelSelector=app%3Da%00`, code: 400 },
  { title: 'a label selector key with a NUL', method: 'GET', path: `${DEPLOYMENTS}?labelSelector=a%00`, code: 400 },
  // bytes that are no UTF-8
  { title: 'a name that is no UTF-8', method: 'GET', path: itemPath(deployment, 'a%ff'), code: 400 },
  { title: 'a namespace that is no UTF-8', method: 'GET', path: '/apis/extensions/v1beta1/namespaces/%C3%28/deployments', code: 400 },
  { title: 'a label selector that is no UTF-8', method: 'GET', path: `${DEPLOYMENTS}?labelSelector=app%3D%ff`, code: 400 },
  { title: 'a field selector that is no UTF-8', method: 'GET', path: `${DEPLOYMENTS}?fieldSelector=metadata.name%3D%C3%28`, code: 400 },
  // over-long segments
  { title: 'GET of an over-long name', method: 'GET', path: itemPath(deployment, LONG), code: 404 },
  { title: 'DELETE of an over-long name', method: 'DELETE', path: itemPath(deployment, LONG), code: 404 },
  {
    title: 'POST of an over-long name',
    method: 'POST',
    path: DEPLOYMENTS,
    body: { ...deployment.manifest, metadata: { name: LONG } },
    code: 422,
  },
  { title: 'POST in an over-long namespace', method: 'POST', path: collectionPath(deployment, LONG), body: deployment.manifest, code: 422 },
  { title: 'an over-long label selector key', method: 'GET', path: `${DEPLOYMENTS}?labelSelector=${'a'.repeat(100)}%3Db`, code: 400 },
  { title: 'an over-long label selector value', method: 'GET', path: `${DEPLOYMENTS}?labelSelector=a%3D${'b'.repeat(64)}`, code: 400 },
  // integers the contract types int32, and resourceVersions beyond the bigint they are
  ...['2147483648', '-2147483649', '99999999999999999999'].map((value) => ({
    title: `timeoutSeconds=${value}`,
    method: 'GET',
    path: `${DEPLOYMENTS}?watch=1&timeoutSeconds=${value}`,
    code: 400,
    message: new RegExp(`^strconv.ParseInt: parsing "${value}": value out of range$`),
  })),
  {
    title: 'timeoutSeconds beyond int32 on a list',
    method: 'GET',
    path: `${DEPLOYMENTS}?timeoutSeconds=2147483648`,
    code: 400,
  },
  {
    title: 'gracePeriodSeconds beyond int32',
    method: 'DELETE',
    path: `${itemPath(deployment, 'web')}?gracePeriodSeconds=2147483648`,
    code: 400,
    message: /^strconv.ParseInt: parsing "2147483648": value out of range$/,
  },
  {
    title: 'gracePeriodSeconds beyond int64 in a DeleteOptions body',
    method: 'DELETE',
    path: itemPath(deployment, 'web'),
    body: '{"gracePeriodSeconds":1e30}',
    code: 400,
  },
  // a request line longer than Node's own 16 KiB header limit is still read, and answered with a Status
  { title: 'GET of a 20,000-character name', method: 'GET', path: itemPath(deployment, 'n'.repeat(20_000)), code: 404 },
  { title: 'a list with a 20,000-character label selector', method: 'GET', path: `${DEPLOYMENTS}?labelSelector=${'a'.repeat(20_000)}`, code: 400 },
  { title: 'a list resourceVersion beyond int64', method: 'GET', path: `${DEPLOYMENTS}?resourceVersion=9223372036854775808`, code: 400 },
  {
    title: 'a watch resourceVersion beyond int64',
    method: 'GET',
    path: `${DEPLOYMENTS}?watch=1&resourceVersion=99999999999999999999999`,
    code: 400,
  },
];

beforeAll(async () => {
  expect((await call('POST', DEPLOYMENTS, deployment.manifest)).status).toBe(201);
});

describe.each(cases)('$title', ({ method, path, body, code, message }) => {
  it(`answers ${code} and changes nothing`, async () => {
    const before = await dbState(server());
    const type = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
    const headers = typeof body === 'string' ? { 'content-type': type } : undefined;
    const response = await call(method, path, body, headers);
    expectFailure(response, code, { 400: 'BadRequest', 404: 'NotFound', 422: 'Invalid' }[code] as string, message);
    expect(await dbState(server())).toEqual(before);
  });
});

describe('values at the int32 limits', () => {
  it('are accepted', async () => {
    expect((await call('GET', `${DEPLOYMENTS}?timeoutSeconds=2147483647`)).status).toBe(200);
    const deleted = await call('DELETE', `${itemPath(deployment, 'missing')}?gracePeriodSeconds=2147483647`);
    expectFailure(deleted, 404, 'NotFound');
  });
});

/** The Deployment fixture with changed metadata. */
const withMetadata = (metadata: Record<string, unknown>) => ({ ...deployment.manifest, metadata: { ...deployment.manifest.metadata, ...metadata } });

describe('what the limits let through', () => {
  it('stores a string with a whole surrogate pair', async () => {
    const body = withMetadata({ name: 'emoji', annotations: { note: 'ok \ud83d\ude00' } });
    const created = await call('POST', DEPLOYMENTS, body);
    expect(created.status).toBe(201);
    expect((await call('GET', `${DEPLOYMENTS}/emoji`)).json.metadata.annotations.note).toBe('ok 😀');
    expect((await call('DELETE', `${DEPLOYMENTS}/emoji?propagationPolicy=Background`)).status).toBe(200);
  });

  it('decodes a document nested just under the limit (its unknown field then dropped)', async () => {
    const nested = JSON.parse(`${'['.repeat(990)}${']'.repeat(990)}`);
    const created = await call('POST', DEPLOYMENTS, { ...withMetadata({ name: 'deep' }), extra: nested });
    expect(created.status).toBe(201);
    expect(created.json).not.toHaveProperty('extra');
    expect((await call('DELETE', `${DEPLOYMENTS}/deep?propagationPolicy=Background`)).status).toBe(200);
  });
});
