import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditEventsIn } from './support/audit-log';
import { http } from './support/http';
import { startAuditedRbacServer } from './support/audited-rbac-server';
import { TestServer } from './support/test-server';
import { until } from './support/until';

/**
 * RBAC names apps (and networking.k8s.io) and extensions apart, though they serve the same objects; the default roles
 * grant both. Audit names the group and version of the request.
 */
jest.setTimeout(60_000);

const RBAC = '/apis/rbac.authorization.k8s.io/v1/namespaces/default';
const APPS = '/apis/apps/v1/namespaces/default/deployments';
const EXTENSIONS = '/apis/extensions/v1beta1/namespaces/default/deployments';

let work: string;
let server: TestServer;
let ca: string;
let auditLog: string;
const as = (token: string, method: string, path: string, body?: unknown) =>
  http(server.secureUrl as string, method, path, { body, headers: { authorization: `Bearer ${token}` }, tls: { ca } });
const root = (method: string, path: string, body?: unknown) => http(server.url, method, path, { body });
const binding = (name: string, user: string, kind: 'Role' | 'ClusterRole', role: string) => ({
  metadata: { name },
  subjects: [{ kind: 'User', name: user }],
  roleRef: { kind, name: role },
});

const deployment = (apiVersion: string, name: string) => ({
  apiVersion,
  kind: 'Deployment',
  metadata: { name },
  spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } },
});

/** Waits until the bindings reach the authorizer (through the change feed). */
async function eventually(check: () => Promise<number>, status: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while ((await check()) !== status) {
    if (Date.now() > deadline) throw new Error(`not ${status} after 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'pgkube-apps-rbac-'));
  const tokens = 'token-apps,apps-only,1\ntoken-ed,ed,2\ntoken-vi,vi,3\ntoken-net,net-only,4\n';
  ({ server, ca, auditLog } = await startAuditedRbacServer(work, tokens, ['apps', 'extensions']));
  const role = { metadata: { name: 'apps-deployments' }, rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch', 'create'] }] };
  expect((await root('POST', `${RBAC}/roles`, role)).status).toBe(201);
  const networkingRole = { metadata: { name: 'networking-ingresses' }, rules: [{ apiGroups: ['networking.k8s.io'], resources: ['ingresses'], verbs: ['get', 'list'] }] };
  expect((await root('POST', `${RBAC}/roles`, networkingRole)).status).toBe(201);
  const bindings = [
    binding('apps-only', 'apps-only', 'Role', 'apps-deployments'),
    binding('net-only', 'net-only', 'Role', 'networking-ingresses'),
    binding('ed-edit', 'ed', 'ClusterRole', 'edit'),
    binding('vi-view', 'vi', 'ClusterRole', 'view'),
  ];
  for (const body of bindings) {
    expect((await root('POST', `${RBAC}/rolebindings`, body)).status).toBe(201);
  }
  expect((await root('POST', EXTENSIONS, deployment('extensions/v1beta1', 'shared'))).status).toBe(201);
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

describe('RBAC over the apps and networking.k8s.io groups', () => {
  it('grants through a role on apps only apps: the same object stays forbidden through extensions', async () => {
    await eventually(async () => (await as('token-apps', 'GET', `${APPS}/shared`)).status, 200);
    expect((await as('token-apps', 'POST', APPS, deployment('apps/v1', 'by-apps'))).status).toBe(201);
    const refused = await as('token-apps', 'GET', `${EXTENSIONS}/shared`);
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe(
      'deployments.extensions "shared" is forbidden: User "apps-only" cannot get resource "deployments" in API group "extensions" in the namespace "default"',
    );
    expect((await as('token-apps', 'PATCH', `${APPS}/shared/scale`, { spec: { replicas: 2 } })).status).toBe(403);
  });

  it('lets the default edit and view roles work through apps as through extensions', async () => {
    await eventually(async () => (await as('token-ed', 'GET', APPS)).status, 200);
    expect((await as('token-ed', 'POST', APPS, deployment('apps/v1', 'by-editor'))).status).toBe(201);
    const scaled = await http(server.secureUrl as string, 'PATCH', `${APPS}/by-editor/scale`, {
      body: { spec: { replicas: 3 } },
      headers: { authorization: 'Bearer token-ed', 'content-type': 'application/merge-patch+json' },
      tls: { ca },
    });
    expect(scaled.status).toBe(200);
    await eventually(async () => (await as('token-vi', 'GET', `${APPS}/by-editor`)).status, 200);
    for (const path of ['/apis/apps/v1/namespaces/default/replicasets', '/apis/apps/v1/namespaces/default/daemonsets', `${APPS}/by-editor/scale`, `${APPS}/by-editor/status`, EXTENSIONS]) {
      expect([path, (await as('token-vi', 'GET', path)).status]).toEqual([path, 200]);
    }
    expect((await as('token-vi', 'DELETE', `${APPS}/by-editor`)).status).toBe(403);
  });

  it('grants through a role on networking.k8s.io only networking.k8s.io, and the view role both', async () => {
    const NETWORKING = '/apis/networking.k8s.io/v1/namespaces/default/ingresses';
    await eventually(async () => (await as('token-net', 'GET', NETWORKING)).status, 200);
    const refused = await as('token-net', 'GET', '/apis/extensions/v1beta1/namespaces/default/ingresses');
    expect(refused.status).toBe(403);
    expect(refused.json.message).toContain('cannot list resource "ingresses" in API group "extensions"');
    expect((await as('token-apps', 'GET', NETWORKING)).status).toBe(403);
    for (const path of [NETWORKING, '/apis/networking.k8s.io/v1/namespaces/default/networkpolicies', '/apis/extensions/v1beta1/namespaces/default/ingresses']) {
      expect([path, (await as('token-vi', 'GET', path)).status]).toEqual([path, 200]);
    }
  });

  it('audits each request with the group and version it was made in', async () => {
    expect((await as('token-apps', 'GET', `${APPS}/shared`)).status).toBe(200);
    expect((await as('token-vi', 'GET', `${EXTENSIONS}/shared`)).status).toBe(200);
    let refs: any[] = [];
    await until(() => {
      refs = auditEventsIn(auditLog)
        .filter((e) => e.verb === 'get' && e.objectRef?.name === 'shared' && e.responseStatus?.code === 200)
        .map((e) => [e.user.username, e.objectRef]);
      return refs.length >= 2;
    });
    expect(refs).toEqual(
      expect.arrayContaining([
        ['apps-only', { resource: 'deployments', namespace: 'default', name: 'shared', apiGroup: 'apps', apiVersion: 'v1' }],
        ['vi', { resource: 'deployments', namespace: 'default', name: 'shared', apiGroup: 'extensions', apiVersion: 'v1beta1' }],
      ]),
    );
  });
});
