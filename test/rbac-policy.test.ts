import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http } from './support/http';
import { createTestDatabase, dropTestDatabase, startTestServer, TestServer } from './support/test-server';
import { runServerToExit } from './support/test-server-process';
import { until } from './support/until';

/**
 * The authorization modes, the default policy written at start-up (once, by instances starting together, and
 * brought back when changed), and the aggregation of cluster roles.
 */
jest.setTimeout(120_000);

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const DEPLOYMENTS = '/apis/extensions/v1beta1/namespaces/default/deployments';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'pgkube-rbac-policy-'));
  writeFileSync(join(work, 'tokens.csv'), 'token-root,root,1,"system:masters"\ntoken-pat,pat,2\n');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function secureServer(databaseUrl: string | undefined, mode: string): Promise<TestServer & { as(token: string, method: string, path: string): ReturnType<typeof http> }> {
  const server = await startTestServer(databaseUrl, {
    SECURE_PORT: '0',
    CERT_DIR: join(work, 'certs'),
    TOKEN_AUTH_FILE: join(work, 'tokens.csv'),
    AUTHORIZATION_MODE: mode,
  });
  const ca = readFileSync(join(work, 'certs', 'apiserver.crt'), 'utf8');
  const as = (token: string, method: string, path: string) =>
    http(server.secureUrl as string, method, path, { headers: token ? { authorization: `Bearer ${token}` } : {}, tls: { ca } });
  return Object.assign(server, { as });
}

describe('--authorization-mode', () => {
  it('refuses an unknown mode at start', () => {
    const { code, stderr } = runServerToExit({ DATABASE_URL: 'postgresql://127.0.0.1:1/none' }, ['--authorization-mode=RBAC,Node']);
    expect(code).toBe(1);
    expect(stderr).toContain('AUTHORIZATION_MODE (--authorization-mode) = "RBAC,Node": AUTHORIZATION_MODE must be a comma list of RBAC, AlwaysAllow and AlwaysDeny');
  });

  it('asks each mode in turn: RBAC first, then AlwaysDeny, whose reason the refusal gives; system:masters passes all', async () => {
    const server = await secureServer(undefined, 'RBAC,AlwaysDeny');
    try {
      expect((await server.as('token-root', 'GET', DEPLOYMENTS)).status).toBe(200);
      expect((await server.as('token-pat', 'GET', '/apis')).status).toBe(200); // system:discovery, by RBAC
      const refused = await server.as('token-pat', 'GET', DEPLOYMENTS);
      expect(refused.json.message).toBe(
        'deployments.extensions is forbidden: User "pat" cannot list resource "deployments" in API group "extensions" in the namespace "default": Everything is forbidden.',
      );
      const review = await http(server.url, 'POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        body: { kind: 'SubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', spec: { user: 'pat', resourceAttributes: { verb: 'list', group: 'extensions', resource: 'deployments' } } },
      });
      expect(review.json.status).toEqual({ allowed: false, denied: true, reason: 'Everything is forbidden.' });
    } finally {
      await server.close();
    }
  });

  it('allows everyone everything with AlwaysAllow, anonymous users included', async () => {
    const server = await secureServer(undefined, 'AlwaysAllow');
    try {
      expect((await server.as('', 'GET', DEPLOYMENTS)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('the default policy', () => {
  let databaseUrl: string;
  let servers: TestServer[] = [];
  const sql = (text: string) => servers[0].sql(text);
  const defaults = () => sql(`SELECT name FROM kube.clusterroles WHERE labels ->> 'kubernetes.io/bootstrapping' = 'rbac-defaults' ORDER BY name`);

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await dropTestDatabase(databaseUrl);
  });

  it('is written once by instances that start together', async () => {
    servers = await Promise.all([startTestServer(databaseUrl), startTestServer(databaseUrl)]);
    const roles = (await defaults()).map((row) => row.name);
    expect(roles).toEqual([
      'admin',
      'cluster-admin',
      'edit',
      'system:aggregate-to-admin',
      'system:aggregate-to-edit',
      'system:aggregate-to-view',
      'system:basic-user',
      'system:discovery',
      'system:public-info-viewer',
      'system:service-account-issuer-discovery',
      'view',
    ]);
    const bindings = await sql(`SELECT name, role_name, subjects FROM kube.clusterrolebindings ORDER BY name`);
    expect(bindings).toContainEqual({ name: 'cluster-admin', role_name: 'cluster-admin', subjects: ['Group:system:masters'] });
    const added = await sql(`SELECT count(*)::int AS n FROM kube.changes WHERE resource IN ('clusterroles', 'clusterrolebindings') AND event_type = 'ADDED'`);
    expect(added[0].n).toBe(16);
  });

  it('gives back what a default lost when an instance starts, unless it is marked autoupdate "false"', async () => {
    const discovery = (await http(servers[0].url, 'GET', `${RBAC}/clusterroles/system:discovery`)).json;
    const stripped = { ...discovery, rules: [{ verbs: ['get'], nonResourceURLs: ['/version'] }] };
    expect((await http(servers[0].url, 'PUT', `${RBAC}/clusterroles/system:discovery`, { body: stripped })).status).toBe(200);
    const basic = (await http(servers[0].url, 'GET', `${RBAC}/clusterroles/system:basic-user`)).json;
    const kept = { ...basic, metadata: { ...basic.metadata, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }, rules: [] };
    expect((await http(servers[0].url, 'PUT', `${RBAC}/clusterroles/system:basic-user`, { body: kept })).status).toBe(200);
    servers.push(await startTestServer(databaseUrl));
    const after = (await http(servers[0].url, 'GET', `${RBAC}/clusterroles/system:discovery`)).json;
    expect(after.rules[0]).toEqual({ verbs: ['get'], nonResourceURLs: ['/version'] });
    expect(after.rules.slice(1)).toEqual(discovery.rules);
    expect((await http(servers[0].url, 'GET', `${RBAC}/clusterroles/system:basic-user`)).json.rules).toEqual([]);
  });

  it('aggregates the cluster roles its selectors select into admin, edit and view', async () => {
    const rule = { verbs: ['get'], apiGroups: ['federation'], resources: ['clusters'] };
    const created = await http(servers[0].url, 'POST', `${RBAC}/clusterroles`, {
      body: { metadata: { name: 'cluster-viewer', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }, rules: [rule] },
    });
    expect(created.status).toBe(201);
    const rulesOf = async (name: string) => (await http(servers[1].url, 'GET', `${RBAC}/clusterroles/${name}`)).json.rules ?? [];
    await until(async () => (await Promise.all(['view', 'edit', 'admin'].map(rulesOf))).every((rules) => rules.some((r: object) => JSON.stringify(r) === JSON.stringify(rule))), 5000, 50);
    const viewRules = await rulesOf('view');
    const aggregateToView = (await http(servers[1].url, 'GET', `${RBAC}/clusterroles/system:aggregate-to-view`)).json.rules;
    expect(viewRules).toEqual([rule, ...aggregateToView]); // the selected roles' rules, in the order of their names
    await http(servers[0].url, 'DELETE', `${RBAC}/clusterroles/cluster-viewer`);
    await until(async () => !(await rulesOf('view')).some((r: object) => JSON.stringify(r) === JSON.stringify(rule)), 5000, 50);
  });
});
