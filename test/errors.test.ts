import { useTestServer } from './support/api';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';
import { dbState } from './support/db-state';
import { kindNamed } from './support/kinds';
import { expectFailure } from './support/status';
import { NOT_DEFAULT_POLICY, NOT_DEFAULT_POLICY_CHANGE } from './support/default-policy';

// Every failure is a Status with the apiserver's code and reason (with later apiservers' 4xx where
// 1.7 answers a client's mistake with a 500), and leaves the database exactly as it was.

const EXT = '/apis/extensions/v1beta1';
const DEPLOYMENTS = `${EXT}/namespaces/default/deployments`;
const WEB = `${DEPLOYMENTS}/web`;
const CLUSTERS = '/apis/federation/v1beta1/clusters';
const OTHER_UID = '00000000-0000-0000-0000-000000000000';

const PATH_NOT_FOUND = 'the server could not find the requested resource';
const NOT_ALLOWED = 'the server does not allow this method on the requested resource';
const NOT_ACCEPTABLE = /^only the following media types are accepted: application\/json, application\/yaml/;
const UNSUPPORTED_TYPE = /^the body of the request was in an unknown format - accepted media types include: application\/json, application\/yaml/;
const UNRECOGNIZED = /^the object provided is unrecognized \(must be of type Deployment\): /;
const CANNOT_HANDLE = /^Deployment in version "v1beta1" cannot be handled as a Deployment: /;

const deploymentManifest = kindNamed('Deployment').manifest;
const clusterManifest = kindNamed('Cluster').manifest;

// what each failed request wrote is compared with the whole database: no controller writes in between
const { call, server } = useTestServer([], WITHOUT_DEPLOYMENT_CONTROLLER);
let webUid: string;

beforeAll(async () => {
  const web = await call('POST', DEPLOYMENTS, deploymentManifest);
  webUid = web.json.metadata.uid;
  await call('POST', CLUSTERS, clusterManifest);
});

/** The Deployment `web` with changed metadata: a body for PUT. */
const web = (metadata: Record<string, unknown>) => ({
  ...deploymentManifest,
  metadata: { ...deploymentManifest.metadata, ...metadata },
});
const json = { 'content-type': 'application/json' };

interface Case {
  title: string;
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  code: number;
  reason: string;
  message?: string | RegExp | (() => string);
  details?: Record<string, unknown> | (() => Record<string, unknown>);
}

const cases: Case[] = [
  // 404: nothing at that path
  { title: 'an unknown path', method: 'GET', path: '/foo', code: 404, reason: 'NotFound', message: PATH_NOT_FOUND, details: {} },
  { title: 'an unknown group', method: 'GET', path: '/apis/nogroup', code: 404, reason: 'NotFound', message: PATH_NOT_FOUND },
  { title: 'a resource of an unknown group', method: 'GET', path: '/apis/nogroup/v1/things', code: 404, reason: 'NotFound', message: PATH_NOT_FOUND },
  { title: 'an unknown version', method: 'GET', path: '/apis/extensions/v9', code: 404, reason: 'NotFound', message: PATH_NOT_FOUND },
  { title: 'a resource of an unknown version', method: 'GET', path: '/apis/extensions/v9/deployments', code: 404, reason: 'NotFound' },
  { title: 'an unknown resource', method: 'GET', path: `${EXT}/foos`, code: 404, reason: 'NotFound', message: PATH_NOT_FOUND },
  { title: 'an unknown namespaced resource', method: 'GET', path: `${EXT}/namespaces/default/foos/x`, code: 404, reason: 'NotFound' },
  { title: 'the core group, which is not served', method: 'GET', path: '/api/v1/pods', code: 404, reason: 'NotFound' },
  { title: 'an unknown subresource', method: 'GET', path: `${WEB}/bogus`, code: 404, reason: 'NotFound', message: PATH_NOT_FOUND },
  { title: 'the replicationcontrollers placeholder itself', method: 'GET', path: `${EXT}/namespaces/default/replicationcontrollers`, code: 404, reason: 'NotFound' },
  { title: 'a namespaced object without its namespace', method: 'GET', path: `${EXT}/deployments/web`, code: 404, reason: 'NotFound', message: PATH_NOT_FOUND },
  { title: 'PUT of a namespaced object without its namespace', method: 'PUT', path: `${EXT}/deployments/web`, body: web({}), code: 404, reason: 'NotFound' },
  { title: 'DELETE of a namespaced object without its namespace', method: 'DELETE', path: `${EXT}/deployments/web`, code: 404, reason: 'NotFound' },
  { title: 'a cluster-scoped collection under a namespace', method: 'GET', path: `${EXT}/namespaces/default/podsecuritypolicies`, code: 404, reason: 'NotFound' },
  { title: 'a cluster-scoped object under a namespace', method: 'GET', path: '/apis/federation/v1beta1/namespaces/default/clusters/us-east', code: 404, reason: 'NotFound', message: PATH_NOT_FOUND },
  { title: 'POST of a cluster-scoped kind under a namespace', method: 'POST', path: '/apis/federation/v1beta1/namespaces/default/clusters', body: { ...clusterManifest, metadata: { name: 'eu-west' } }, code: 404, reason: 'NotFound' },
  // 404: no such object
  {
    title: 'a missing object',
    method: 'GET',
    path: `${DEPLOYMENTS}/missing`,
    code: 404,
    reason: 'NotFound',
    message: 'deployments.extensions "missing" not found',
    details: { name: 'missing', group: 'extensions', kind: 'deployments' },
  },
  {
    title: 'a missing cluster-scoped object',
    method: 'GET',
    path: `${CLUSTERS}/missing`,
    code: 404,
    reason: 'NotFound',
    message: 'clusters.federation "missing" not found',
    details: { name: 'missing', group: 'federation', kind: 'clusters' },
  },
  { title: 'PUT of a missing object (no kind creates on update)', method: 'PUT', path: `${DEPLOYMENTS}/missing`, body: web({ name: 'missing' }), code: 404, reason: 'NotFound', message: 'deployments.extensions "missing" not found' },
  { title: 'DELETE of a missing object', method: 'DELETE', path: `${DEPLOYMENTS}/missing`, code: 404, reason: 'NotFound', message: 'deployments.extensions "missing" not found' },

  // 405: the path exists, the method does not
  { title: 'POST to an item', method: 'POST', path: WEB, body: web({}), code: 405, reason: 'MethodNotAllowed', message: NOT_ALLOWED, details: {} },
  { title: 'PUT on a collection', method: 'PUT', path: DEPLOYMENTS, body: web({}), code: 405, reason: 'MethodNotAllowed', message: NOT_ALLOWED },
  { title: 'POST to an all-namespaces collection', method: 'POST', path: `${EXT}/deployments`, body: web({ name: 'web2' }), code: 405, reason: 'MethodNotAllowed' },
  { title: 'DELETE of an all-namespaces collection', method: 'DELETE', path: `${EXT}/deployments`, code: 405, reason: 'MethodNotAllowed' },
  { title: 'GET on deployments/x/rollback', method: 'GET', path: `${WEB}/rollback`, code: 405, reason: 'MethodNotAllowed', message: NOT_ALLOWED },
  { title: 'GET on clusters/x/status', method: 'GET', path: `${CLUSTERS}/us-east/status`, code: 405, reason: 'MethodNotAllowed', message: NOT_ALLOWED },
  {
    title: 'PATCH on clusters/x/status with a patch content type',
    method: 'PATCH',
    path: `${CLUSTERS}/us-east/status`,
    body: '{"status":{}}',
    headers: { 'content-type': 'application/merge-patch+json' },
    code: 405,
    reason: 'MethodNotAllowed',
  },
  { title: 'DELETE on /status', method: 'DELETE', path: `${WEB}/status`, code: 405, reason: 'MethodNotAllowed' },
  { title: 'DELETE on /scale', method: 'DELETE', path: `${WEB}/scale`, code: 405, reason: 'MethodNotAllowed' },
  { title: 'POST to /apis', method: 'POST', path: '/apis', body: {}, code: 405, reason: 'MethodNotAllowed', message: NOT_ALLOWED },
  { title: 'PUT on a group version', method: 'PUT', path: EXT, body: {}, code: 405, reason: 'MethodNotAllowed' },

  // 406: nothing the client accepts can be written
  { title: 'an Accept allowing only a protobuf type other than Kubernetes’', method: 'GET', path: WEB, headers: { accept: 'application/x-protobuf' }, code: 406, reason: 'NotAcceptable', message: NOT_ACCEPTABLE },
  { title: 'an Accept allowing only YAML, for a watch', method: 'GET', path: `${DEPLOYMENTS}?watch=true&timeoutSeconds=1`, headers: { accept: 'application/yaml' }, code: 406, reason: 'NotAcceptable' },
  { title: 'an Accept allowing only text/html', method: 'GET', path: DEPLOYMENTS, headers: { accept: 'text/html' }, code: 406, reason: 'NotAcceptable', message: NOT_ACCEPTABLE },
  { title: 'a discovery document for text/html only', method: 'GET', path: '/apis', headers: { accept: 'text/html' }, code: 406, reason: 'NotAcceptable' },
  {
    title: 'a POST with an unacceptable Accept (checked before anything is written)',
    method: 'POST',
    path: DEPLOYMENTS,
    body: web({ name: 'web2' }),
    headers: { accept: 'text/html' },
    code: 406,
    reason: 'NotAcceptable',
  },

  // 415: a body in a type the endpoint does not read
  { title: 'POST with text/plain', method: 'POST', path: DEPLOYMENTS, body: JSON.stringify(web({ name: 'web2' })), headers: { 'content-type': 'text/plain' }, code: 415, reason: 'UnsupportedMediaType', message: UNSUPPORTED_TYPE },
  { title: 'PATCH with application/json', method: 'PATCH', path: WEB, body: { metadata: { labels: { a: 'b' } } }, code: 415, reason: 'UnsupportedMediaType' },
  { title: 'PATCH without a Content-Type', method: 'PATCH', path: WEB, body: Buffer.from('{"metadata":{}}'), code: 415, reason: 'UnsupportedMediaType' },
  { title: 'PUT with a patch content type', method: 'PUT', path: WEB, body: JSON.stringify(web({})), headers: { 'content-type': 'application/merge-patch+json' }, code: 415, reason: 'UnsupportedMediaType', message: UNSUPPORTED_TYPE },
  { title: 'POST with a malformed Content-Type', method: 'POST', path: DEPLOYMENTS, body: JSON.stringify(web({ name: 'web2' })), headers: { 'content-type': '///' }, code: 415, reason: 'UnsupportedMediaType' },

  // 413: a body over 3 MiB
  {
    title: 'a body over 3 MiB',
    method: 'POST',
    path: DEPLOYMENTS,
    body: web({ name: 'big', annotations: { big: 'x'.repeat(3 * 1024 * 1024) } }),
    code: 413,
    reason: 'RequestEntityTooLarge',
    message: 'Request entity too large: limit is 3145728',
  },

  // 400: the request cannot be read as an object of the endpoint's kind
  { title: 'malformed JSON', method: 'POST', path: DEPLOYMENTS, body: '{"metadata": {', headers: json, code: 400, reason: 'BadRequest', message: UNRECOGNIZED },
  { title: 'malformed YAML', method: 'POST', path: DEPLOYMENTS, body: 'metadata: [\n  name: x\n', headers: { 'content-type': 'application/yaml' }, code: 400, reason: 'BadRequest', message: UNRECOGNIZED },
  { title: 'an empty JSON body', method: 'POST', path: DEPLOYMENTS, body: '', headers: json, code: 400, reason: 'BadRequest', message: UNRECOGNIZED },
  { title: 'an empty body without a Content-Type', method: 'POST', path: DEPLOYMENTS, code: 400, reason: 'BadRequest', message: UNRECOGNIZED },
  { title: 'an empty YAML body', method: 'POST', path: DEPLOYMENTS, body: '', headers: { 'content-type': 'application/yaml' }, code: 400, reason: 'BadRequest' },
  { title: 'a JSON array body', method: 'POST', path: DEPLOYMENTS, body: [web({ name: 'web2' })], code: 400, reason: 'BadRequest', message: CANNOT_HANDLE },
  { title: 'a JSON string body', method: 'POST', path: DEPLOYMENTS, body: '"web"', headers: json, code: 400, reason: 'BadRequest', message: CANNOT_HANDLE },
  {
    title: 'an apiVersion of another group',
    method: 'POST',
    path: DEPLOYMENTS,
    body: { ...web({ name: 'web2' }), apiVersion: 'apps/v1' },
    code: 400,
    reason: 'BadRequest',
    message: 'the API version in the data (apps/v1) does not match the expected API version (extensions/v1beta1)',
  },
  { title: 'a kind other than the endpoint’s', method: 'POST', path: DEPLOYMENTS, body: { ...web({ name: 'web2' }), kind: 'ReplicaSet' }, code: 400, reason: 'BadRequest', message: /^ReplicaSet in version "v1beta1" cannot be handled as a Deployment/ },
  {
    title: 'POST with a namespace other than the path’s',
    method: 'POST',
    path: DEPLOYMENTS,
    body: web({ name: 'web2', namespace: 'other' }),
    code: 400,
    reason: 'BadRequest',
    message: 'the namespace of the provided object does not match the namespace sent on the request',
  },
  {
    title: 'PUT with a namespace other than the path’s',
    method: 'PUT',
    path: WEB,
    body: web({ namespace: 'other' }),
    code: 400,
    reason: 'BadRequest',
    message: 'the namespace of the object (other) does not match the namespace on the request (default)',
  },
  {
    title: 'PUT with a name other than the URL’s',
    method: 'PUT',
    path: WEB,
    body: web({ name: 'other' }),
    code: 400,
    reason: 'BadRequest',
    message: 'the name of the object (other) does not match the name on the URL (web)',
  },
  {
    title: 'PUT without a name',
    method: 'PUT',
    path: WEB,
    body: web({ name: undefined }),
    code: 400,
    reason: 'BadRequest',
    message: 'the name of the object (web based on URL) was undeterminable: name must be provided',
  },
  {
    title: 'a metadata field of the wrong type',
    method: 'POST',
    path: DEPLOYMENTS,
    body: web({ name: 'web2', labels: 'app=web' }),
    code: 400,
    reason: 'BadRequest',
    message: /cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field ObjectMeta\.metadata\.labels of type map\[string\]string$/,
  },
  {
    title: 'an owner reference field of the wrong type',
    method: 'POST',
    path: DEPLOYMENTS,
    body: web({ name: 'web2', ownerReferences: [{ apiVersion: 1, kind: 'Thing', name: 'owner', uid: OTHER_UID }] }),
    code: 400,
    reason: 'BadRequest',
    message: /json: cannot unmarshal number into Go struct field \w+\.metadata\.ownerReferences\.apiVersion of type string$/,
  },
  { title: 'an owner reference that is null (Go’s zero value, which is invalid)', method: 'POST', path: DEPLOYMENTS, body: web({ name: 'web2', ownerReferences: [null] }), code: 422, reason: 'Invalid' },
  { title: 'a non-boolean owner reference controller flag', method: 'PUT', path: WEB, body: web({ ownerReferences: [{ apiVersion: 'v1', kind: 'Thing', name: 'owner', uid: OTHER_UID, controller: 'yes' }] }), code: 400, reason: 'BadRequest' },
  { title: 'pending initializers that are not a list', method: 'POST', path: DEPLOYMENTS, body: web({ name: 'web2', initializers: { pending: 'all' } }), code: 400, reason: 'BadRequest', message: CANNOT_HANDLE },
  { title: 'metadata that is not an object', method: 'POST', path: DEPLOYMENTS, body: { ...web({}), metadata: 'web' }, code: 400, reason: 'BadRequest', message: CANNOT_HANDLE },
  { title: 'a creationTimestamp that is not a time', method: 'POST', path: DEPLOYMENTS, body: web({ name: 'web2', creationTimestamp: 'yesterday' }), code: 400, reason: 'BadRequest', message: CANNOT_HANDLE },
  { title: 'a non-numeric resourceVersion in a PUT body', method: 'PUT', path: WEB, body: web({ resourceVersion: 'abc' }), code: 400, reason: 'BadRequest', message: /"abc"/ },
  {
    title: 'POST carrying a resourceVersion',
    method: 'POST',
    path: DEPLOYMENTS,
    body: web({ name: 'web2', resourceVersion: '1' }),
    code: 400,
    reason: 'BadRequest',
    message: 'resourceVersion should not be set on objects to be created',
  },
  { title: 'a name in the URL containing %', method: 'GET', path: `${DEPLOYMENTS}/a%25b`, code: 400, reason: 'BadRequest', message: `Name parameter invalid: "a%b": may not contain '%'` },
  { title: 'PUT to a name containing %', method: 'PUT', path: `${DEPLOYMENTS}/a%25b`, body: web({ name: 'a%b' }), code: 400, reason: 'BadRequest', message: `Name parameter invalid: "a%b": may not contain '%'` },
  { title: 'DELETE of a name containing %', method: 'DELETE', path: `${DEPLOYMENTS}/a%25b`, code: 400, reason: 'BadRequest', message: `Name parameter invalid: "a%b": may not contain '%'` },
  { title: 'a malformed escape in the path', method: 'GET', path: `${DEPLOYMENTS}/a%zz`, code: 400, reason: 'BadRequest' },
  { title: 'a string with a NUL character (PostgreSQL cannot store it)', method: 'POST', path: DEPLOYMENTS, body: web({ name: 'web2', annotations: { note: 'a\u0000b' } }), code: 400, reason: 'BadRequest', message: UNRECOGNIZED },
  { title: 'a key with a NUL character', method: 'PUT', path: WEB, body: { ...web({}), spec: { 'a\u0000': 1 } }, code: 400, reason: 'BadRequest' },
  { title: 'half a surrogate pair in a string (PostgreSQL rejects it)', method: 'POST', path: DEPLOYMENTS, body: web({ name: 'web2', annotations: { note: 'a\ud800b' } }), code: 400, reason: 'BadRequest', message: UNRECOGNIZED },
  { title: 'half a surrogate pair in a key', method: 'PUT', path: WEB, body: { ...web({}), spec: { '\udc00': 1 } }, code: 400, reason: 'BadRequest' },
  {
    title: 'a document nested too deeply',
    method: 'POST',
    path: DEPLOYMENTS,
    body: `{"metadata":{"name":"deep"},"spec":{"x":${'['.repeat(5000)}${']'.repeat(5000)}}}`,
    headers: json,
    code: 400,
    reason: 'BadRequest',
    message: UNRECOGNIZED,
  },

  // 409: a precondition does not hold
  {
    title: 'PUT with a different metadata.uid',
    method: 'PUT',
    path: WEB,
    body: web({ uid: OTHER_UID }),
    code: 409,
    reason: 'Conflict',
    message: () => `Operation cannot be fulfilled on deployments.extensions "web": Precondition failed: UID in precondition: ${OTHER_UID}, UID in object meta: ${webUid}`,
    details: { name: 'web', group: 'extensions', kind: 'deployments' },
  },
  {
    title: 'DELETE with a preconditions.uid that does not match',
    method: 'DELETE',
    path: WEB,
    body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: OTHER_UID } },
    code: 409,
    reason: 'Conflict',
    message: () =>
      `Operation cannot be fulfilled on Deployment.extensions "web": the UID in the precondition (${OTHER_UID}) does not match the UID in record (${webUid}). The object might have been deleted and then recreated`,
    details: { name: 'web', group: 'extensions', kind: 'Deployment' },
  },

  // 422 and 400: DeleteOptions
  {
    title: 'DeleteOptions with both orphanDependents and propagationPolicy',
    method: 'DELETE',
    path: WEB,
    body: { kind: 'DeleteOptions', apiVersion: 'v1', orphanDependents: true, propagationPolicy: 'Orphan' },
    code: 422,
    reason: 'Invalid',
    message: /^ "" is invalid: : Invalid value: .+: OrphanDependents and DeletionPropagation cannot be both set$/,
  },
  {
    title: 'DeleteOptions with an unknown propagationPolicy',
    method: 'DELETE',
    path: WEB,
    body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Sometimes' },
    code: 422,
    reason: 'Invalid',
    message: /^ "" is invalid: : Invalid value: .+: DeletionPropagation need to be one of "Foreground", "Background", "Orphan" or nil$/,
  },
  { title: 'an unknown propagationPolicy in the query', method: 'DELETE', path: `${WEB}?propagationPolicy=Sometimes`, code: 422, reason: 'Invalid' },
  { title: 'both delete options in the query', method: 'DELETE', path: `${WEB}?propagationPolicy=Orphan&orphanDependents=true`, code: 422, reason: 'Invalid' },
  { title: 'an undecodable DeleteOptions body', method: 'DELETE', path: WEB, body: '{"propagationPolicy":', headers: json, code: 400, reason: 'BadRequest' },
  { title: 'DeleteOptions of another kind', method: 'DELETE', path: WEB, body: { kind: 'Deployment', apiVersion: 'v1' }, code: 400, reason: 'BadRequest' },
  { title: 'DeleteOptions with a field of the wrong type', method: 'DELETE', path: WEB, body: { propagationPolicy: 1 }, code: 400, reason: 'BadRequest' },
  { title: 'an undecodable DeleteOptions body on a collection', method: 'DELETE', path: DEPLOYMENTS, body: '[', headers: json, code: 400, reason: 'BadRequest' },
  { title: 'a non-numeric gracePeriodSeconds', method: 'DELETE', path: `${WEB}?gracePeriodSeconds=soon`, code: 400, reason: 'BadRequest' },
];

describe.each(cases)('$title', (c) => {
  it(`answers ${c.code} ${c.reason} and changes nothing`, async () => {
    const before = await dbState(server());
    const response = await call(c.method, c.path, c.body, c.headers);
    const message = typeof c.message === 'function' ? c.message() : c.message;
    expectFailure(response, c.code, c.reason, message);
    if (c.details) expect(response.json.details).toEqual(typeof c.details === 'function' ? c.details() : c.details);
    expect(await dbState(server())).toEqual(before);
  });
});

describe('the DeleteOptions Status of a 422', () => {
  it('has one cause with an empty field and names no object', async () => {
    const response = await call('DELETE', WEB, { orphanDependents: false, propagationPolicy: 'Background' });
    expect(response.status).toBe(422);
    expect(response.json.details).toEqual({
      causes: [{ reason: 'FieldValueInvalid', message: expect.stringMatching(/^Invalid value: /), field: '' }],
    });
  });
});

describe('methods no route serves', () => {
  it.each(['HEAD', 'OPTIONS'])('answers %s on a collection with 405 and changes nothing', async (method) => {
    const before = await dbState(server());
    const response = await call(method, DEPLOYMENTS);
    expect(response.status).toBe(405);
    if (method !== 'HEAD') expectFailure(response, 405, 'MethodNotAllowed', NOT_ALLOWED);
    expect(await dbState(server())).toEqual(before);
  });

});

describe('after all of these', () => {
  it('still serves, and the seeded objects are as they were created', async () => {
    const health = await call('GET', '/healthz');
    expect(health.status).toBe(200);
    const rows = await server().sql(`SELECT resource, name FROM objects WHERE ${NOT_DEFAULT_POLICY} ORDER BY resource, name`);
    expect(rows).toEqual([
      { resource: 'clusters', name: 'us-east' },
      { resource: 'deployments', name: 'web' },
    ]);
    const changes = await server().sql(`SELECT event_type FROM change_log WHERE ${NOT_DEFAULT_POLICY_CHANGE}`);
    expect(changes).toEqual([{ event_type: 'ADDED' }, { event_type: 'ADDED' }]);
  });
});
