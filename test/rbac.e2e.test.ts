import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, HttpResult } from './support/http';
import { kindNamed } from './support/kinds';
import { kubectl, KUBECTLS } from './support/kubectl';
import { createNamespaces } from './support/namespaces';
import { startTestServer, TestServer, WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';
import { WatchClient } from './support/watch-client';

/**
 * RBAC end to end on the secure port: users with the default roles bound (cluster-admin to a user, admin, edit and
 * view in one namespace, and anonymous) against every verb on kinds of three groups in two namespaces, each answer
 * 2xx or 403 as the roles say; kubectl auth can-i (current and 1.20) answering the same; and a binding made through
 * one instance taking effect on another.
 */
jest.setTimeout(180_000);

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const NAMESPACES = ['team-a', 'team-b'];

/** The users of the matrix: their token, and what the test expects of their roles. */
const USERS = {
  ada: 'token-ada', // cluster-admin, by a ClusterRoleBinding naming the user
  nadia: 'token-nadia', // admin in team-a
  ed: 'token-ed', // edit in team-a
  vi: 'token-vi', // view in team-a
  anonymous: '',
} as const;
type User = keyof typeof USERS;

interface KindCase {
  name: string;
  group: string;
  resource: string;
  namespaced: boolean;
  /** the default roles grant it in a namespace (workloads), or admin alone does (roles) */
  grantedTo: 'workload' | 'rbac' | 'cluster-admin';
  manifest(name: string): any;
}

const fixture = (kind: string) => (name: string) => ({ ...kindNamed(kind).manifest, metadata: { name, labels: { app: 'web' } } });

const KINDS: KindCase[] = [
  { name: 'deployments', group: 'extensions', resource: 'deployments', namespaced: true, grantedTo: 'workload', manifest: fixture('Deployment') },
  { name: 'replicasets', group: 'extensions', resource: 'replicasets', namespaced: true, grantedTo: 'workload', manifest: fixture('ReplicaSet') },
  {
    name: 'roles',
    group: 'rbac.authorization.k8s.io',
    resource: 'roles',
    namespaced: true,
    grantedTo: 'rbac',
    manifest: (name) => ({ kind: 'Role', apiVersion: 'rbac.authorization.k8s.io/v1', metadata: { name }, rules: [] }),
  },
  {
    name: 'podsecuritypolicies',
    group: 'extensions',
    resource: 'podsecuritypolicies',
    namespaced: false,
    grantedTo: 'cluster-admin',
    manifest: fixture('PodSecurityPolicy'),
  },
];

const VERBS = ['create', 'get', 'list', 'watch', 'update', 'patch', 'delete'] as const;
type Verb = (typeof VERBS)[number];
const READ: readonly Verb[] = ['get', 'list', 'watch'];

/** What the bindings of the test allow: the model the server's answers are held to. */
function allowed(user: User, verb: Verb, kind: KindCase, namespace: string): boolean {
  if (user === 'ada') return true;
  if (!kind.namespaced || namespace !== 'team-a' || kind.grantedTo === 'cluster-admin') return false;
  switch (user) {
    case 'nadia':
      return true;
    case 'ed':
      return kind.grantedTo === 'workload';
    case 'vi':
      return kind.grantedTo === 'workload' && READ.includes(verb);
    default:
      return false;
  }
}

const groupPath = (kind: KindCase) => (kind.group === 'extensions' ? '/apis/extensions/v1beta1' : RBAC);
const collection = (kind: KindCase, namespace: string) => `${groupPath(kind)}${kind.namespaced ? `/namespaces/${namespace}` : ''}/${kind.resource}`;

describe('RBAC on the secure port', () => {
  let work: string;
  let server: TestServer;
  let other: TestServer;
  let ca: string;
  const env = () => ({ SECURE_PORT: '0', CERT_DIR: join(work, 'certs'), TOKEN_AUTH_FILE: join(work, 'tokens.csv'), ...WITHOUT_DEPLOYMENT_CONTROLLER });
  const headersOf = (user: User): Record<string, string> => (USERS[user] ? { authorization: `Bearer ${USERS[user]}` } : {});
  const as = (user: User, method: string, path: string, body?: unknown, on = server) =>
    http(on.secureUrl as string, method, path, { body, headers: headersOf(user), tls: { ca } });
  const root = (method: string, path: string, body?: unknown) => http(server.url, method, path, { body });

  const bind = (path: string, name: string, role: string, subject: object) =>
    root('POST', path, { metadata: { name }, subjects: [subject], roleRef: { kind: 'ClusterRole', name: role } });
  const user = (name: string) => ({ kind: 'User', name });

  /** Waits until the user's request is answered with `status`: the bindings reach the index through the change feed. */
  async function eventually(check: () => Promise<HttpResult>, status: number, timeoutMs = 5000): Promise<number> {
    const start = Date.now();
    for (;;) {
      const { status: got } = await check();
      if (got === status) return Date.now() - start;
      if (Date.now() - start > timeoutMs) throw new Error(`still ${got} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'pgkube-rbac-'));
    const tokens = Object.entries(USERS).filter(([, token]) => token).map(([name, token], i) => `${token},${name},${100 + i}`);
    writeFileSync(join(work, 'tokens.csv'), `${tokens.join('\n')}\n`);
    server = await startTestServer(undefined, env());
    ca = readFileSync(join(work, 'certs', 'apiserver.crt'), 'utf8');
    await createNamespaces(server.url, [...NAMESPACES, 'team-c']);
    const created = await Promise.all([
      bind(`${RBAC}/clusterrolebindings`, 'ada-admin', 'cluster-admin', user('ada')),
      bind(`${RBAC}/namespaces/team-a/rolebindings`, 'nadia-admin', 'admin', user('nadia')),
      bind(`${RBAC}/namespaces/team-a/rolebindings`, 'ed-edit', 'edit', user('ed')),
      bind(`${RBAC}/namespaces/team-a/rolebindings`, 'vi-view', 'view', user('vi')),
    ]);
    expect(created.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    for (const kind of KINDS) {
      for (const namespace of kind.namespaced ? NAMESPACES : ['']) {
        expect((await root('POST', collection(kind, namespace), kind.manifest('shared'))).status).toBe(201);
      }
    }
    await eventually(() => as('vi', 'GET', `${collection(KINDS[0], 'team-a')}/shared`), 200);
  });

  afterAll(async () => {
    await other?.close();
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** One request of the verb as the user: on the kind's shared object, or on an object of the user's own. */
  async function request(who: User, verb: Verb, kind: KindCase, namespace: string): Promise<number> {
    const path = collection(kind, namespace);
    const own = `${who}-own`;
    const labelled = { metadata: { labels: { touched: who } } };
    switch (verb) {
      case 'create':
        return (await as(who, 'POST', path, kind.manifest(own))).status;
      case 'get':
        return (await as(who, 'GET', `${path}/shared`)).status;
      case 'list':
        return (await as(who, 'GET', path)).status;
      case 'watch': {
        const watch = await WatchClient.open(server.secureUrl as string, `${path}?watch=true`, headersOf(who), { ca });
        watch.close();
        return watch.status;
      }
      case 'update': {
        const current = (await root('GET', `${path}/shared`)).json;
        return (await as(who, 'PUT', `${path}/shared`, { ...current, metadata: { ...current.metadata, annotations: { by: who } } })).status;
      }
      case 'patch':
        return (await http(server.secureUrl as string, 'PATCH', `${path}/shared`, {
          body: labelled,
          headers: { ...headersOf(who), 'content-type': 'application/merge-patch+json' },
          tls: { ca },
        })).status;
      case 'delete':
        return (await as(who, 'DELETE', `${path}/${own}`)).status;
    }
  }

  const CASES = (Object.keys(USERS) as User[]).flatMap((who) =>
    KINDS.flatMap((kind) => (kind.namespaced ? NAMESPACES : ['']).map((namespace) => [who, kind.name, namespace || '(cluster)'] as const)),
  );

  it.each(CASES)('%s on %s in %s: each verb is answered 2xx or 403 as the roles say', async (who, kindName, where) => {
    const kind = KINDS.find((k) => k.name === kindName) as KindCase;
    const namespace = where === '(cluster)' ? '' : where;
    const answers = [];
    for (const verb of VERBS) answers.push(`${verb} ${await request(who, verb, kind, namespace)}`);
    const expected = VERBS.map((verb) => `${verb} ${allowed(who, verb, kind, namespace) ? (verb === 'create' ? 201 : 200) : 403}`);
    expect(answers).toEqual(expected);
  });

  it('words a refusal as the apiserver does', async () => {
    const refused = await as('vi', 'DELETE', `${collection(KINDS[0], 'team-a')}/shared`);
    expect(refused.json).toMatchObject({
      kind: 'Status',
      code: 403,
      reason: 'Forbidden',
      message: 'deployments.extensions "shared" is forbidden: User "vi" cannot delete resource "deployments" in API group "extensions" in the namespace "team-a"',
      details: { name: 'shared', group: 'extensions', kind: 'deployments' },
    });
    const cluster = await as('ed', 'GET', '/apis/extensions/v1beta1/podsecuritypolicies');
    expect(cluster.json.message).toBe(
      'podsecuritypolicies.extensions is forbidden: User "ed" cannot list resource "podsecuritypolicies" in API group "extensions" at the cluster scope',
    );
    // a resource this server does not serve is a resource all the same, as upstream sees it
    const pods = await as('vi', 'GET', '/api/v1/namespaces/team-a/pods');
    expect(pods.json.message).toBe('pods is forbidden: User "vi" cannot list resource "pods" in API group "" in the namespace "team-a"');
    expect((await as('ada', 'GET', '/api/v1/namespaces/team-a/pods')).status).toBe(404);
    const path = await as('anonymous', 'GET', '/metrics');
    expect(path.json.message).toBe('forbidden: User "system:anonymous" cannot get path "/metrics"');
  });

  it('serves discovery to every authenticated user and the health endpoints to anyone', async () => {
    expect((await as('vi', 'GET', '/apis')).status).toBe(200);
    expect((await as('vi', 'GET', '/openapi/v2')).status).toBe(200);
    expect((await as('anonymous', 'GET', '/healthz')).status).toBe(200);
    expect((await as('anonymous', 'GET', '/apis')).status).toBe(403);
  });

  it('names a binding whose role is missing in the refusal', async () => {
    expect((await bind(`${RBAC}/namespaces/team-b/rolebindings`, 'vi-ghost', 'ghost', user('vi'))).status).toBe(201);
    await eventually(async () => {
      const refused = await as('vi', 'GET', `${collection(KINDS[0], 'team-b')}/shared`);
      return { ...refused, status: refused.json.message.endsWith(': RBAC: clusterrole.rbac.authorization.k8s.io "ghost" not found') ? 1 : 0 };
    }, 1);
  });

  describe('escalation', () => {
    const roleIn = (name: string, rules: object[]) => ({ kind: 'Role', apiVersion: 'rbac.authorization.k8s.io/v1', metadata: { name }, rules });

    it('lets a namespace admin write a role with permissions it holds, and no more', async () => {
      const held = await as('nadia', 'POST', `${RBAC}/namespaces/team-a/roles`, roleIn('deploy-reader', [{ apiGroups: ['extensions'], resources: ['deployments'], verbs: ['get'] }]));
      expect(held.status).toBe(201);
      const more = await as('nadia', 'POST', `${RBAC}/namespaces/team-a/roles`, roleIn('psp-reader', [{ apiGroups: ['extensions'], resources: ['podsecuritypolicies'], verbs: ['get', 'list'] }]));
      expect(more.status).toBe(403);
      expect(more.json.message).toBe(
        'roles.rbac.authorization.k8s.io "psp-reader" is forbidden: user "nadia" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
          '{APIGroups:["extensions"], Resources:["podsecuritypolicies"], Verbs:["get" "list"]}',
      );
      const current = (await root('GET', `${RBAC}/namespaces/team-a/roles/deploy-reader`)).json;
      const widened = await as('nadia', 'PUT', `${RBAC}/namespaces/team-a/roles/deploy-reader`, { ...current, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] });
      expect(widened.status).toBe(403);
    });

    it('lets a namespace admin bind roles whose permissions it holds, but not cluster-admin', async () => {
      const edit = await as('nadia', 'POST', `${RBAC}/namespaces/team-a/rolebindings`, {
        metadata: { name: 'helper-edit' },
        subjects: [{ kind: 'User', name: 'helper' }],
        roleRef: { kind: 'ClusterRole', name: 'edit' },
      });
      expect(edit.status).toBe(201);
      const admin = await as('nadia', 'POST', `${RBAC}/namespaces/team-a/rolebindings`, {
        metadata: { name: 'nadia-root' },
        subjects: [{ kind: 'User', name: 'nadia' }],
        roleRef: { kind: 'ClusterRole', name: 'cluster-admin' },
      });
      expect(admin.status).toBe(403);
      expect(admin.json.message).toMatch(/^rolebindings.rbac.authorization.k8s.io "nadia-root" is forbidden: user "nadia" .* not currently held:\n\{APIGroups:\["\*"\], Resources:\["\*"\], Verbs:\["\*"\]\}/);
    });

    it('lets a user with the bind verb on a role bind it', async () => {
      const binder = roleIn('binder', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['cluster-admin'] }]);
      expect((await root('POST', `${RBAC}/namespaces/team-b/roles`, binder)).status).toBe(201);
      const rbacWriter = roleIn('rbac-writer', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings'], verbs: ['create'] }]);
      expect((await root('POST', `${RBAC}/namespaces/team-b/roles`, rbacWriter)).status).toBe(201);
      for (const role of ['binder', 'rbac-writer']) {
        const binding = { metadata: { name: `ed-${role}` }, subjects: [user('ed')], roleRef: { kind: 'Role', name: role } };
        expect((await root('POST', `${RBAC}/namespaces/team-b/rolebindings`, binding)).status).toBe(201);
      }
      const bind = () =>
        as('ed', 'POST', `${RBAC}/namespaces/team-b/rolebindings`, {
          metadata: { name: 'ed-admin' },
          subjects: [user('helper')],
          roleRef: { kind: 'ClusterRole', name: 'cluster-admin' },
        });
      await eventually(bind, 201);
    });
  });

  describe('impersonation', () => {
    const asSomeone = (who: User, headers: Record<string, string>, path: string) =>
      http(server.secureUrl as string, 'GET', path, { headers: { ...headersOf(who), ...headers }, tls: { ca } });

    it('needs the impersonate verb on the user, group or service account', async () => {
      const deployments = `${collection(KINDS[0], 'team-a')}`;
      expect((await asSomeone('ada', { 'impersonate-user': 'vi' }, deployments)).status).toBe(200);
      const asViDeleting = await http(server.secureUrl as string, 'DELETE', `${deployments}/shared`, { headers: { ...headersOf('ada'), 'impersonate-user': 'vi' }, tls: { ca } });
      expect(asViDeleting.json.message).toContain('User "vi" cannot delete resource "deployments"');
      const refused = await asSomeone('ed', { 'impersonate-user': 'ada' }, deployments);
      expect(refused.json).toMatchObject({
        code: 403,
        message: 'users "ada" is forbidden: User "ed" cannot impersonate resource "users" in API group "" at the cluster scope',
      });
      const group = await asSomeone('ed', { 'impersonate-user': 'system:serviceaccount:team-a:builder', 'impersonate-group': 'system:masters' }, deployments);
      expect(group.json.message).toBe('groups "system:masters" is forbidden: User "ed" cannot impersonate resource "groups" in API group "" at the cluster scope');
      // edit allows impersonating the namespace's service accounts, which have no permissions of their own here
      const serviceAccount = await asSomeone('ed', { 'impersonate-user': 'system:serviceaccount:team-a:builder' }, deployments);
      expect(serviceAccount.json.message).toContain('User "system:serviceaccount:team-a:builder" cannot list resource "deployments"');
      const otherNamespace = await asSomeone('ed', { 'impersonate-user': 'system:serviceaccount:team-b:builder' }, deployments);
      expect(otherNamespace.json.message).toBe(
        'serviceaccounts "builder" is forbidden: User "ed" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "team-b"',
      );
    });
  });

  describe.each(KUBECTLS)('kubectl $tag auth can-i', (client) => {
    const canI = (who: User, args: string[]) =>
      kubectl(client, server.secureUrl as string, [
        `--certificate-authority=${join(work, 'certs', 'apiserver.crt')}`,
        ...(USERS[who] ? [`--token=${USERS[who]}`] : []),
        'auth',
        'can-i',
        ...args,
      ]);

    // anonymous cannot ask: like upstream's, the default policy lets only authenticated users create reviews
    it.each((['nadia', 'ed', 'vi'] as User[]).map((who) => [who]))('agrees with the matrix for %s', async (who) => {
      const answers: string[] = [];
      const expected: string[] = [];
      for (const kind of KINDS.slice(0, 3)) {
        for (const verb of ['get', 'create', 'delete'] as Verb[]) {
          for (const namespace of NAMESPACES) {
            const result = await canI(who, [verb, `${kind.resource}.${kind.group}`, `--namespace=${namespace}`]);
            answers.push(`${verb} ${kind.name} ${namespace}: ${result.stdout.trim().split(' - ')[0] || result.stderr.trim()}`); // after " - ": the reason
            expected.push(`${verb} ${kind.name} ${namespace}: ${allowed(who, verb, kind, namespace) ? 'yes' : 'no'}`);
          }
        }
      }
      expect(answers).toEqual(expected);
    });

    it('answers for an impersonated user (--as)', async () => {
      const asVi = (verb: string) => canI('ada', ['--as=vi', verb, 'deployments.extensions', '--namespace=team-a']);
      expect((await asVi('get')).stdout.trim()).toBe('yes');
      expect((await asVi('delete')).stdout.trim()).toBe('no');
    });

    it('lists the rules of a user in a namespace (--list)', async () => {
      const result = await canI('vi', ['--list', '--namespace=team-a']);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(/deployments\.extensions\s+\[\]\s+\[\]\s+\[get list watch\]/);
      expect(result.stdout).toMatch(/selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]/);
      expect(result.stdout).toMatch(/\s\[\/apis\]\s+\[\]\s+\[get\]/);
    });
  });

  it('takes a binding made through one instance into account on another within a second', async () => {
    other = await startTestServer(server.databaseUrl, env());
    const path = `${collection(KINDS[0], 'team-c')}/none`; // outside the matrix's namespaces: allowed, it is a 404
    expect((await as('vi', 'GET', path, undefined, other)).status).toBe(403);
    expect((await bind(`${RBAC}/namespaces/team-c/rolebindings`, 'vi-view', 'view', user('vi'))).status).toBe(201);
    const took = await eventually(() => as('vi', 'GET', path, undefined, other), 404, 1000);
    expect(took).toBeLessThan(1000);
    // and a binding removed by SQL, on both instances
    await server.sql(`DELETE FROM objects WHERE resource = 'rolebindings' AND namespace = 'team-c' AND name = 'vi-view'`);
    await eventually(() => as('vi', 'GET', path, undefined, other), 403, 1000);
    await eventually(() => as('vi', 'GET', path), 403, 1000);
  });

  it('lets admins alone ask about other users (SubjectAccessReview)', async () => {
    const review = { kind: 'SubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', spec: { user: 'vi', resourceAttributes: { verb: 'get', group: 'extensions', resource: 'deployments', namespace: 'team-a' } } };
    const asked = await as('ada', 'POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', review);
    expect(asked.status).toBe(201);
    expect(asked.json.status).toEqual({ allowed: true });
    const refused = await as('vi', 'POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', review);
    expect(refused.status).toBe(403);
    const local = await as('nadia', 'POST', '/apis/authorization.k8s.io/v1/namespaces/team-a/localsubjectaccessreviews', { ...review, kind: 'LocalSubjectAccessReview' });
    expect(local.json.status).toEqual({ allowed: true });
  });
});
