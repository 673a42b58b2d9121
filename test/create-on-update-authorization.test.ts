import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, HttpResult } from './support/http';
import { createNamespaces } from './support/namespaces';
import { startTestServer, TestServer } from './support/test-server';
import { until } from './support/until';

/**
 * A PUT of a missing Lease or Event creates it, and a server-side apply of any missing object does: on the secure
 * port the user must then be allowed to `create` it, not only to `update` or `patch` it (upstream's update and patch
 * handlers ask the authorizer for the create).
 */
jest.setTimeout(60_000);

const NAMESPACE = 'elect';
const LEASES = `/apis/coordination.k8s.io/v1/namespaces/${NAMESPACE}/leases`;
const RBAC = `/apis/rbac.authorization.k8s.io/v1/namespaces/${NAMESPACE}`;

let work: string;
let server: TestServer;
let ca: string;

const asCandidate = (method: string, path: string, body: unknown, contentType = 'application/json'): Promise<HttpResult> =>
  http(server.secureUrl as string, method, path, { body: JSON.stringify(body), headers: { authorization: 'Bearer token-candidate', 'content-type': contentType }, tls: { ca } });

const lease = (name: string) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: NAMESPACE }, spec: { holderIdentity: 'a' } });

/** Whether the candidate may `verb` leases, as the authorizer sees it now (a SelfSubjectAccessReview). */
async function mayCandidate(verb: string): Promise<boolean> {
  const review = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { namespace: NAMESPACE, verb, group: 'coordination.k8s.io', resource: 'leases' } } };
  const answer = await asCandidate('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', review);
  return answer.json.status?.allowed === true;
}

/** Replaces the candidate's Role with one of `verbs`, and waits until RBAC (fed by the change feed, as upstream's informers) applies it. */
async function grant(verbs: string[]): Promise<void> {
  const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'candidate' }, rules: [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs }] };
  await http(server.url, 'DELETE', `${RBAC}/roles/candidate`);
  expect((await http(server.url, 'POST', `${RBAC}/roles`, { body: role })).status).toBe(201);
  await until(async () => {
    for (const verb of ['get', 'update', 'patch', 'create']) if ((await mayCandidate(verb)) !== verbs.includes(verb)) return false;
    return true;
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'pgkube-create-on-update-'));
  writeFileSync(join(work, 'tokens.csv'), 'token-candidate,candidate,3001\n');
  server = await startTestServer(undefined, { SECURE_PORT: '0', CERT_DIR: join(work, 'certs'), TOKEN_AUTH_FILE: join(work, 'tokens.csv') });
  ca = readFileSync(join(work, 'certs', 'apiserver.crt'), 'utf8');
  await createNamespaces(server.url, [NAMESPACE]);
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'candidate' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'candidate' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'candidate' }],
  };
  expect((await http(server.url, 'POST', `${RBAC}/rolebindings`, { body: binding })).status).toBe(201);
});

afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

const refusal = (name: string) =>
  `leases.coordination.k8s.io "${name}" is forbidden: User "candidate" cannot create resource "leases" in API group "coordination.k8s.io" in the namespace "${NAMESPACE}"`;

it('refuses a PUT or an apply that would create without create, and writes nothing', async () => {
  await grant(['get', 'update', 'patch']);
  const put = await asCandidate('PUT', `${LEASES}/by-put`, lease('by-put'));
  expect([put.status, put.json.message]).toEqual([403, refusal('by-put')]);
  const applied = await asCandidate('PATCH', `${LEASES}/by-apply?fieldManager=candidate`, lease('by-apply'), 'application/apply-patch+yaml');
  expect([applied.status, applied.json.message]).toEqual([403, refusal('by-apply')]);
  expect(await server.sql(`SELECT name FROM objects WHERE resource = 'leases' AND namespace = $1`, [NAMESPACE])).toEqual([]);
});

it('creates by PUT and by apply once create is granted, and updates with update alone', async () => {
  await grant(['get', 'update', 'patch', 'create']);
  expect((await asCandidate('PUT', `${LEASES}/by-put`, lease('by-put'))).status).toBe(201);
  expect((await asCandidate('PATCH', `${LEASES}/by-apply?fieldManager=candidate`, lease('by-apply'), 'application/apply-patch+yaml')).status).toBe(201);
  await grant(['get', 'update', 'patch']);
  const renewed = { ...lease('by-put'), spec: { holderIdentity: 'b' } };
  expect((await asCandidate('PUT', `${LEASES}/by-put`, renewed)).status).toBe(200);
});
