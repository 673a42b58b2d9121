import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { http } from './support/http';
import { kindNamed } from './support/kinds';
import { KUBECTL_1_20, kubectl, KubectlClient, KUBECTLS } from './support/kubectl';
import { sample } from './support/metrics';
import { startOidcIssuer, OidcIssuer } from './support/oidc-issuer';
import { issue, makeCa, OPENSSL } from './support/pki';
import { createNamespaces } from './support/namespaces';
import { startTestServer, TestServer } from './support/test-server';
import { auditEventsIn } from './support/audit-log';

/**
 * The secure port end to end: kubectl (on the PATH and 1.20) through kubeconfigs with a client certificate (made
 * with openssl), a static token and an OIDC token from a small issuer started here (its keys over HTTPS with its own
 * CA); wrong and expired credentials; anonymous requests; impersonation; and the audit log in the file and the table.
 */
const describeWithOpenssl = OPENSSL ? describe : describe.skip;

const REVIEW = 'apiVersion: authentication.k8s.io/v1\nkind: SelfSubjectReview\n';

describeWithOpenssl('the secure port', () => {
  jest.setTimeout(120_000);
  let work: string;
  let server: TestServer;
  let issuer: OidcIssuer;
  let serverCa: string;
  /** a request to the secure port, trusting its certificate */
  const https = (method: string, path: string, headers: Record<string, string> = {}) =>
    http(server.secureUrl as string, method, path, { headers, tls: { ca: serverCa } });
  const kubeconfigs: Record<string, string> = {};
  const auditLog = () => join(work, 'audit.log');

  /** A kubeconfig for the secure port with these user credentials (file paths or tokens). */
  function kubeconfig(name: string, user: Record<string, string>): void {
    const config = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'pgkube', cluster: { server: server.secureUrl, 'certificate-authority': join(work, 'certs', 'apiserver.crt') } }],
      users: [{ name, user }],
      contexts: [{ name, context: { cluster: 'pgkube', user: name } }],
      'current-context': name,
    };
    kubeconfigs[name] = join(work, `${name}.kubeconfig`);
    writeFileSync(kubeconfigs[name], dump(config));
  }

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'pgkube-auth-'));
    const clientCa = makeCa(work, 'client-ca');
    const alice = issue(work, clientCa, 'alice', '/CN=alice/O=admins/O=dev', ['extendedKeyUsage=clientAuth']);
    const eve = issue(work, clientCa, 'eve', '/CN=eve', ['extendedKeyUsage=serverAuth']);
    const otherCa = makeCa(work, 'other-ca');
    const mallory = issue(work, otherCa, 'mallory', '/CN=alice/O=system:masters', ['extendedKeyUsage=clientAuth']);
    const issuerCa = makeCa(work, 'issuer-ca');
    issuer = await startOidcIssuer(issue(work, issuerCa, 'issuer', '/CN=issuer', ['subjectAltName=IP:127.0.0.1']), 'pgkube');
    writeFileSync(join(work, 'tokens.csv'), 's3cret-bob,bob,1001,"dev,ops"\nother-token,erin,1002\n');
    const policy = {
      apiVersion: 'audit.k8s.io/v1',
      kind: 'Policy',
      omitStages: ['RequestReceived'],
      rules: [{ level: 'None', nonResourceURLs: ['/healthz*', '/livez*', '/readyz*', '/metrics'] }, { level: 'Metadata' }],
    };
    writeFileSync(join(work, 'policy.yaml'), dump(policy));
    server = await startTestServer(undefined, {
      SECURE_PORT: '0',
      CERT_DIR: join(work, 'certs'),
      CLIENT_CA_FILE: clientCa.cert,
      TOKEN_AUTH_FILE: join(work, 'tokens.csv'),
      OIDC_ISSUER_URL: issuer.url,
      OIDC_CLIENT_ID: 'pgkube',
      OIDC_GROUPS_CLAIM: 'groups',
      OIDC_CA_FILE: issuerCa.cert,
      AUDIT_POLICY_FILE: join(work, 'policy.yaml'),
      AUDIT_LOG_PATH: auditLog(),
    });
    await createNamespaces(server.url, ['audit']);
    serverCa = readFileSync(join(work, 'certs', 'apiserver.crt'), 'utf8');
    const now = Math.floor(Date.now() / 1000);
    kubeconfig('alice', { 'client-certificate': alice.cert, 'client-key': alice.key });
    kubeconfig('mallory', { 'client-certificate': mallory.cert, 'client-key': mallory.key });
    kubeconfig('eve', { 'client-certificate': eve.cert, 'client-key': eve.key });
    kubeconfig('bob', { token: 's3cret-bob' });
    kubeconfig('wrong-token', { token: 'not-a-token' });
    kubeconfig('carol', { token: await issuer.token({ sub: 'carol', groups: ['readers', 'oncall'] }) });
    kubeconfig('expired', { token: await issuer.token({ sub: 'carol', iat: now - 7200, exp: now - 3600 }) });
    kubeconfig('wrong-audience', { token: await issuer.token({ sub: 'carol', aud: 'someone-else' }) });
    // RBAC is on: the group dev (alice and bob) may edit workloads in every namespace, as the default role says
    const devEditors = await http(server.url, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      body: { metadata: { name: 'dev-edit' }, subjects: [{ kind: 'Group', name: 'dev' }], roleRef: { kind: 'ClusterRole', name: 'edit' } },
    });
    expect(devEditors.status).toBe(201);
  });

  afterAll(async () => {
    await server?.close();
    await issuer?.close();
    rmSync(work, { recursive: true, force: true });
  });

  describe.each(KUBECTLS)('kubectl $tag', (client: KubectlClient) => {
    const as = (user: string, args: string[], input = '') => kubectl(client, { kubeconfig: kubeconfigs[user] }, args, input);
    const namespace = `auth-${client.tag}`;

    /** The user the server saw, from a SelfSubjectReview that kubectl creates (1.20 has no `auth whoami`). */
    async function reviewedAs(user: string) {
      const result = await as(user, ['create', '-f', '-', '-o', 'json'], REVIEW);
      expect(result.stderr).toBe('');
      return JSON.parse(result.stdout).status.userInfo;
    }

    it.each([
      ['alice', { username: 'alice', groups: ['admins', 'dev', 'system:authenticated'] }],
      ['bob', { username: 'bob', uid: '1001', groups: ['dev', 'ops', 'system:authenticated'] }],
    ])('recognises %s', async (user, expected) => {
      expect(await reviewedAs(user)).toEqual(expected);
      const listed = await as(user, ['get', 'deployments', `--namespace=${namespace}`]);
      expect(listed).toMatchObject({ code: 0 });
    });

    it('recognises an OIDC user, named after the issuer, with the groups of the token', async () => {
      expect(await reviewedAs('carol')).toEqual({ username: `${issuer.url}#carol`, groups: ['readers', 'oncall', 'system:authenticated'] });
    });

    // mallory: a certificate of another CA; eve: of the client CA, but for servers only
    it.each(['mallory', 'eve', 'wrong-token', 'expired', 'wrong-audience'])('refuses %s with 401 Unauthorized', async (user) => {
      const result = await as(user, ['get', 'deployments', `--namespace=${namespace}`]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/Unauthorized/);
    });

    if (client.binary !== KUBECTL_1_20) {
      it('auth whoami names each user', async () => {
        const whoami = async (user: string) => JSON.parse((await as(user, ['auth', 'whoami', '-o', 'json'])).stdout).status.userInfo;
        expect(await whoami('alice')).toEqual({ username: 'alice', groups: ['admins', 'dev', 'system:authenticated'] });
        expect(await whoami('bob')).toMatchObject({ username: 'bob', uid: '1001' });
        expect(await whoami('carol')).toMatchObject({ username: `${issuer.url}#carol` });
        const table = await as('bob', ['auth', 'whoami']);
        expect(table.stdout).toMatch(/Username\s+bob/);
      });
    }
  });

  it('answers HTTP/2 (ALPN) and HTTP/1.1, and a bad token with a 401 Status', async () => {
    const session = connect(server.secureUrl as string, { ca: serverCa });
    const status = await new Promise<number>((resolve, reject) => {
      const stream = session.request({ ':path': '/version', authorization: 'Bearer s3cret-bob' });
      stream.on('response', (headers) => resolve(Number(headers[':status'])));
      stream.on('error', reject);
      stream.resume();
    });
    expect({ status, alpn: session.alpnProtocol }).toEqual({ status: 200, alpn: 'h2' });
    session.close();
    expect((await https('GET', '/version', { authorization: 'Bearer s3cret-bob' })).status).toBe(200);
    const refused = await https('GET', '/apis', { authorization: 'Bearer nope' });
    expect({ status: refused.status, json: refused.json }).toEqual({
      status: 401,
      json: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 },
    });
  });

  // (kubectl without credentials asks for a user name on its standard input, so these requests are made directly)
  it('lets anonymous requests read the public endpoints only', async () => {
    const anonymous = (path: string) => https('GET', path);
    expect(await anonymous('/healthz')).toMatchObject({ status: 200, text: 'ok' });
    expect((await anonymous('/version')).status).toBe(200);
    expect(await anonymous('/apis/extensions/v1beta1/namespaces/x/deployments')).toMatchObject({
      status: 403,
      json: {
        reason: 'Forbidden',
        message: 'deployments.extensions is forbidden: User "system:anonymous" cannot list resource "deployments" in API group "extensions" in the namespace "x"',
      },
    });
    expect((await anonymous('/apis')).json.message).toBe('forbidden: User "system:anonymous" cannot get path "/apis"');
  });

  it('lets the insecure port impersonate, and refuses impersonation on the secure port without the impersonate verb', async () => {
    const headers = { 'impersonate-user': 'dave', 'impersonate-group': 'ops', 'impersonate-extra-scopes': 'view' };
    const review = await http(server.url, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { body: { kind: 'SelfSubjectReview' }, headers });
    expect(review.status).toBe(201);
    expect(review.json.status.userInfo).toEqual({ username: 'dave', groups: ['ops', 'system:authenticated'], extra: { scopes: ['view'] } });
    const refused = await https('GET', '/apis', { authorization: 'Bearer s3cret-bob', 'impersonate-user': 'dave' });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({
      reason: 'Forbidden',
      message: 'users "dave" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
    });
  });

  it('audits a delete at Metadata level into the file and the table, where the documented query finds its user', async () => {
    const path = kubectl;
    const bob = { kubeconfig: kubeconfigs.bob };
    const client = KUBECTLS[0];
    const manifest = { ...kindNamed('Deployment').manifest, metadata: { ...kindNamed('Deployment').manifest.metadata, name: 'audited', namespace: 'audit' } };
    expect((await path(client, bob, ['create', '-f', '-'], JSON.stringify(manifest))).code).toBe(0);
    expect((await path(client, bob, ['delete', 'deployment', 'audited', '--namespace=audit'])).code).toBe(0);

    const isDelete = (e: any) => e.verb === 'delete' && e.objectRef?.name === 'audited' && e.stage === 'ResponseComplete';
    let events: any[] = [];
    for (let i = 0; i < 50 && !events.some(isDelete); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      events = auditEventsIn(auditLog());
    }
    expect(events.find(isDelete)).toMatchObject({
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: 'Metadata',
      user: { username: 'bob', groups: ['dev', 'ops', 'system:authenticated'] },
      objectRef: { resource: 'deployments', namespace: 'audit', name: 'audited', apiGroup: 'extensions', apiVersion: 'v1beta1' },
      responseStatus: { code: 200 },
    });
    expect(events.some((e) => e.stage === 'RequestReceived')).toBe(false); // omitted by the policy
    expect(events.some((e) => e.requestURI?.startsWith('/healthz'))).toBe(false); // level None
    expect(events.find((e) => e.impersonatedUser)).toMatchObject({ user: { username: 'system:unsecured' }, impersonatedUser: { username: 'dave' } });

    // docs/operations.md's query, for this deployment and the last hour instead of last Tuesday
    const docs = readFileSync(join(__dirname, '..', 'docs', 'operations.md'), 'utf8');
    const query = (/-- who deleted deployment web[^\n]*\n([\s\S]*?;)/.exec(docs) as RegExpExecArray)[1]
      .replace("namespace = 'default'", "namespace = 'audit'")
      .replace("name = 'web'", "name = 'audited'")
      .replace(/AND at >= [^\n]*/, "AND at > now() - interval '1 hour'");
    let rows = await server.sql(query);
    for (let i = 0; i < 50 && rows.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100)); // the table's batch goes on its own, after the file's maybe
      rows = await server.sql(query);
    }
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ username: 'bob', code: 200 });

    const metrics = (await http(server.url, 'GET', '/metrics')).text;
    expect(sample(metrics, 'apiserver_audit_event_total')).toBeGreaterThan(0);
  });

  it('audits a watch when its response starts and when it completes', async () => {
    const watch = await https('GET', '/apis/extensions/v1beta1/namespaces/audit/deployments?watch=1&timeoutSeconds=1', {
      authorization: 'Bearer s3cret-bob',
    });
    expect(watch.status).toBe(200);
    const auditId = watch.headers.get('audit-id');
    let stages: string[] = [];
    for (let i = 0; i < 50 && stages.length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const events = auditEventsIn(auditLog());
      stages = events.filter((e) => e.auditID === auditId).map((e) => e.stage);
    }
    expect(stages).toEqual(['ResponseStarted', 'ResponseComplete']);
  });
});
