import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v1Event } from './support/events';
import { http } from './support/http';
import { startAuditedRbacServer } from './support/audited-rbac-server';
import { TestServer } from './support/test-server';
import { until } from './support/until';
import { auditEventsIn } from './support/audit-log';

/**
 * A kind served in several API groups over the same stored objects (Events: core/v1 and events.k8s.io/v1) is
 * authorized and audited by the group of the request, as upstream's: sharing the storage grants nothing across groups.
 */
jest.setTimeout(120_000);

const CORE = '/api/v1/namespaces/default/events';
const V1 = '/apis/events.k8s.io/v1/namespaces/default/events';
const RBAC = '/apis/rbac.authorization.k8s.io/v1/namespaces/default';

let work: string;
let server: TestServer;
let ca: string;
let auditLog: string;
const as = (token: string, method: string, path: string, body?: unknown) =>
  http(server.secureUrl as string, method, path, { body, headers: { authorization: `Bearer ${token}` }, tls: { ca } });

/** A Role in `default` on `events` of one API group, bound to one user. */
async function grant(user: string, group: string, verbs: string[]): Promise<void> {
  const role = await http(server.url, 'POST', `${RBAC}/roles`, { body: { metadata: { name: user }, rules: [{ apiGroups: [group], resources: ['events'], verbs }] } });
  expect(role.status).toBe(201);
  const binding = await http(server.url, 'POST', `${RBAC}/rolebindings`, {
    body: { metadata: { name: user }, subjects: [{ kind: 'User', name: user }], roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: user } },
  });
  expect(binding.status).toBe(201);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'pgkube-cross-version-'));
  ({ server, ca, auditLog } = await startAuditedRbacServer(
    work,
    'token-new,new-reader,1\ntoken-old,old-reader,2\ntoken-root,root,3,"system:masters"\ntoken-writer,writer,4\n',
    ['events.k8s.io', ''],
  ));
  await grant('new-reader', 'events.k8s.io', ['get', 'list', 'watch']);
  await grant('old-reader', '', ['get', 'list', 'watch']);
  await grant('writer', 'events.k8s.io', ['get', 'update', 'patch']);
  expect((await as('token-root', 'POST', V1, v1Event('shared'))).status).toBe(201);
});

afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('RBAC by the API group of the request', () => {
  it.each([
    ['token-new', 'new-reader', V1, CORE, 'events', '""'],
    ['token-old', 'old-reader', CORE, V1, 'events.events.k8s.io', '"events.k8s.io"'],
  ])('%s reads one group’s events and not the other’s, though they are the same objects', async (token, user, granted, refused, forbidden, group) => {
    for (const path of [granted, `${granted}/shared`, `${granted}?watch=1&timeoutSeconds=1`]) expect((await as(token, 'GET', path)).status).toBe(200);
    const list = await as(token, 'GET', refused);
    expect(list.status).toBe(403);
    expect(list.json.message).toBe(
      `${forbidden} is forbidden: User "${user}" cannot list resource "events" in API group ${group} in the namespace "default"`,
    );
    expect((await as(token, 'GET', `${refused}/shared`)).status).toBe(403);
    expect((await as(token, 'GET', `${refused}?watch=1&timeoutSeconds=1`)).status).toBe(403);
    // reading is not writing, in either group
    expect((await as(token, 'POST', granted, v1Event('nope'))).status).toBe(403);
  });

  it('asks for create in the request’s group when a PUT creates, whatever the other group grants', async () => {
    const core = await http(server.url, 'POST', `${RBAC}/roles`, { body: { metadata: { name: 'core-creator' }, rules: [{ apiGroups: [''], resources: ['events'], verbs: ['create'] }] } });
    expect(core.status).toBe(201);
    const binding = await http(server.url, 'POST', `${RBAC}/rolebindings`, {
      body: { metadata: { name: 'core-creator' }, subjects: [{ kind: 'User', name: 'writer' }], roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'core-creator' } },
    });
    expect(binding.status).toBe(201);
    const put = await as('token-writer', 'PUT', `${V1}/put-created`, v1Event('put-created'));
    expect(put.status).toBe(403);
    expect(put.json.message).toContain('cannot create resource "events" in API group "events.k8s.io"');
    expect((await as('token-root', 'GET', `${CORE}/put-created`)).status).toBe(404);
    const shared = (await as('token-writer', 'GET', `${V1}/shared`)).json;
    expect((await as('token-writer', 'PUT', `${V1}/shared`, { ...shared, metadata: { ...shared.metadata, labels: { by: 'writer' } } })).status).toBe(200);
  });
});

describe('audit', () => {
  it('names the group and version of the request in objectRef, and the object a create names in its body', async () => {
    const created = await as('token-root', 'POST', V1, v1Event('audited'));
    expect(created.status).toBe(201);
    expect((await as('token-root', 'GET', `${CORE}/audited`)).status).toBe(200);
    const ids = [created.headers.get('audit-id')];
    let events: any[] = [];
    await until(() => {
      events = auditEventsIn(auditLog).filter((e) => e.objectRef?.name === 'audited' || ids.includes(e.auditID));
      return events.length >= 2;
    });
    expect(events.map((e: any) => [e.verb, e.objectRef])).toEqual([
      // a create names its object only in the body: the objectRef is completed from it, as upstream's
      ['create', { resource: 'events', namespace: 'default', name: 'audited', apiGroup: 'events.k8s.io', apiVersion: 'v1' }],
      ['get', { resource: 'events', namespace: 'default', name: 'audited', apiVersion: 'v1' }],
    ]);
  });
});
