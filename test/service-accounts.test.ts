import { createHash, createPublicKey, generateKeyPairSync, sign as cryptoSign, verify } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeEnveloped, encodeEnveloped } from '../src/apiserver/codec/protobuf/envelope';
import { CORE_KINDS } from '../src/apis/core/core.kinds';
import { ServiceAccountTokens } from '../src/apis/core/serviceaccount/service-account-tokens';
import { http } from './support/http';
import { createNamespaces } from './support/namespaces';
import { startTestServer, TestServer } from './support/test-server';

/**
 * ServiceAccounts and their tokens over real HTTP: the kind on the insecure port and in `kube.serviceaccounts`; TokenRequests (defaults, checks,
 * errors); the tokens authenticating on the secure port as the account, refused once the account is gone or
 * recreated, for another audience or expired; RBAC bindings to a ServiceAccount subject; the OIDC discovery
 * documents, whose keys verify a token with node's crypto; the default key shared by instances over one CERT_DIR; an EC key.
 */
jest.setTimeout(120_000);

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const NAMESPACE = 'team-a';
const SA_PATH = `/api/v1/namespaces/${NAMESPACE}/serviceaccounts`;
const tokenPath = (name: string, namespace = NAMESPACE) => `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`;
const REVIEW_PATH = '/apis/authentication.k8s.io/v1/selfsubjectreviews';

/** Tokens bound to a Secret need Secrets served (another part of the server's core group). */
const itWithSecrets = CORE_KINDS.some((def) => def.resource === 'secrets') ? it : it.skip;

const decodePart = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

describe('service accounts', () => {
  let work: string;
  let server: TestServer;
  let serverCa: string;
  const env = () => ({ SECURE_PORT: '0', CERT_DIR: join(work, 'certs'), TOKEN_AUTH_FILE: join(work, 'tokens.csv') });
  const https = (method: string, path: string, token?: string, body?: unknown) =>
    http(server.secureUrl as string, method, path, { body, headers: token ? { authorization: `Bearer ${token}` } : {}, tls: { ca: serverCa } });
  const createAccount = async (name: string, namespace = NAMESPACE) => {
    const created = await http(server.url, 'POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, { body: { metadata: { name } } });
    expect(created.status).toBe(201);
    return created.json;
  };
  const requestToken = async (name: string, spec: Record<string, unknown> = {}, namespace = NAMESPACE) => {
    const answer = await http(server.url, 'POST', tokenPath(name, namespace), { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec } });
    expect(answer.status).toBe(201);
    return answer.json.status.token as string;
  };
  const whoAmI = (token: string) => https('POST', REVIEW_PATH, token, { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' });

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'pgkube-sa-'));
    writeFileSync(join(work, 'tokens.csv'), 'token-nobody,nobody,2001\n');
    server = await startTestServer(undefined, env());
    await createNamespaces(server.url, [NAMESPACE, 'team-b']);
    serverCa = readFileSync(join(work, 'certs', 'apiserver.crt'), 'utf8');
  });

  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('serves ServiceAccounts, keeping only the names of their secret references, with NAME SECRETS AGE', async () => {
    const created = await http(server.url, 'POST', SA_PATH, {
      body: { metadata: { name: 'builder' }, secrets: [{ name: 'one', kind: 'Secret', uid: 'x' }], imagePullSecrets: [{ name: 'pull' }], automountServiceAccountToken: false },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      kind: 'ServiceAccount',
      apiVersion: 'v1',
      metadata: { name: 'builder', namespace: NAMESPACE },
      secrets: [{ name: 'one' }],
      imagePullSecrets: [{ name: 'pull' }],
      automountServiceAccountToken: false,
    });
    expect(created.json.secrets[0]).toEqual({ name: 'one' });
    // the default signing key is made when first needed, not before
    expect(existsSync(join(work, 'certs', 'sa.key'))).toBe(false);
    const table = await http(server.url, 'GET', SA_PATH, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    expect(table.json.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Secrets', 'Age']);
    expect(table.json.rows.map((r: { cells: unknown[] }) => r.cells.slice(0, 2))).toEqual([['builder', 1]]);
    const bad = await http(server.url, 'POST', SA_PATH, { body: { metadata: { name: 'Not_Valid' } } });
    expect(bad.status).toBe(422);
    const rows = await server.sql('SELECT namespace, name, secrets, image_pull_secrets, automount_token FROM kube.serviceaccounts');
    expect(rows).toEqual([{ namespace: NAMESPACE, name: 'builder', secrets: ['one'], image_pull_secrets: ['pull'], automount_token: false }]);
  });

  it('answers a TokenRequest with its defaults, the account filled in and a signed token', async () => {
    const account = await createAccount('robot');
    const before = Math.floor(Date.now() / 1000);
    const answer = await http(server.url, 'POST', tokenPath('robot'), { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} } });
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { name: 'robot', namespace: NAMESPACE, uid: account.metadata.uid },
      spec: { audiences: [ISSUER], expirationSeconds: 3600, boundObjectRef: null },
    });
    const expires = Date.parse(answer.json.status.expirationTimestamp) / 1000;
    expect(expires - before).toBeGreaterThanOrEqual(3599);
    expect(expires - before).toBeLessThanOrEqual(3602);
    const [header, payload] = answer.json.status.token.split('.').slice(0, 2).map(decodePart);
    expect(header).toEqual({ alg: 'RS256', kid: expect.any(String) });
    expect(payload).toEqual({
      aud: [ISSUER],
      exp: expect.any(Number),
      iat: expect.any(Number),
      iss: ISSUER,
      jti: expect.any(String),
      'kubernetes.io': { namespace: NAMESPACE, serviceaccount: { name: 'robot', uid: account.metadata.uid } },
      nbf: payload.iat,
      sub: `system:serviceaccount:${NAMESPACE}:robot`,
    });
    expect(payload.exp - payload.iat).toBe(3600);
    // the default key is made and kept in CERT_DIR
    expect(existsSync(join(work, 'certs', 'sa.key'))).toBe(true);
  });

  it('publishes the token subresource in discovery and OpenAPI, and takes and answers TokenRequests in protobuf', async () => {
    const resources = (await http(server.url, 'GET', '/api/v1')).json.resources;
    expect(resources).toContainEqual(expect.objectContaining({ name: 'serviceaccounts', kind: 'ServiceAccount', namespaced: true, shortNames: ['sa'] }));
    expect(resources).toContainEqual({ name: 'serviceaccounts/token', singularName: '', namespaced: true, group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] });
    const openapi = (await http(server.url, 'GET', '/openapi/v2')).json;
    const post = openapi.paths['/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token'].post;
    expect(post.parameters.find((p: { in: string }) => p.in === 'body').schema).toEqual({ $ref: '#/definitions/io.k8s.api.authentication.v1.TokenRequest' });
    expect(openapi.definitions['io.k8s.api.authentication.v1.TokenRequestSpec'].required).toEqual(['audiences']);
    const body = encodeEnveloped({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: {}, spec: { expirationSeconds: 1200 } });
    const headers = { 'content-type': 'application/vnd.kubernetes.protobuf', accept: 'application/vnd.kubernetes.protobuf' };
    await createAccount('protobuf');
    const answer = await http(server.url, 'POST', tokenPath('protobuf'), { body, headers });
    expect(answer.status).toBe(201);
    const decoded = decodeEnveloped(answer.bytes) as any;
    expect(decoded).toMatchObject({ kind: 'TokenRequest', metadata: { name: 'protobuf' }, spec: { audiences: [ISSUER], expirationSeconds: 1200 } });
    expect(decoded.status.token.split('.')).toHaveLength(3);
  });

  it.each([
    [
      'a duration under 10 minutes',
      'robot',
      { spec: { expirationSeconds: 60 } },
      422,
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    ],
    [
      'a duration over 2^32 seconds',
      'robot',
      { spec: { expirationSeconds: 2 ** 32 + 1 } },
      422,
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
    ],
    [
      'another name',
      'robot',
      { metadata: { name: 'other' }, spec: {} },
      422,
      'TokenRequest.authentication.k8s.io "robot" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified',
    ],
    [
      'another namespace',
      'robot',
      { metadata: { namespace: 'other' }, spec: {} },
      422,
      'TokenRequest.authentication.k8s.io "robot" is invalid: metadata.namespace: Invalid value: "other": must match the service account namespace if specified',
    ],
    ['a missing account', 'ghost', { spec: {} }, 404, 'serviceaccounts "ghost" not found'],
    [
      'another uid',
      'robot',
      { metadata: { uid: 'not-the-uid' }, spec: {} },
      409,
      /^Operation cannot be fulfilled on TokenRequest.authentication.k8s.io "robot": the UID in the token request \(not-the-uid\) does not match the UID of the service account/,
    ],
    ['a binding to a Pod', 'robot', { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p' } } }, 400, 'cannot bind token to object of type /v1, Kind=Pod'],
    ['a body of the wrong type', 'robot', { spec: { expirationSeconds: 'long' } }, 400, /cannot be handled as a TokenRequest/],
  ])('refuses %s', async (_what, name, body, code, message) => {
    const answer = await http(server.url, 'POST', tokenPath(name), { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', ...body } });
    expect(answer.status).toBe(code);
    expect(answer.json.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
  });

  it('authenticates a token on the secure port as its account, with its groups, uid and credential id', async () => {
    const token = await requestToken('robot');
    const account = (await http(server.url, 'GET', `${SA_PATH}/robot`)).json;
    const review = await whoAmI(token);
    expect(review.status).toBe(201);
    expect(review.json.status.userInfo).toEqual({
      username: `system:serviceaccount:${NAMESPACE}:robot`,
      uid: account.metadata.uid,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${NAMESPACE}`, 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${decodePart(token.split('.')[1]).jti}`] },
    });
  });

  it('puts an impersonated service account named without groups in its groups, as upstream does', async () => {
    const review = (headers: Record<string, string>) =>
      http(server.url, 'POST', REVIEW_PATH, { body: { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' }, headers });
    const user = `system:serviceaccount:${NAMESPACE}:robot`;
    expect((await review({ 'impersonate-user': user })).json.status.userInfo).toEqual({
      username: user,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${NAMESPACE}`, 'system:authenticated'],
    });
    expect((await review({ 'impersonate-user': user, 'impersonate-group': 'ops' })).json.status.userInfo).toEqual({
      username: user,
      groups: ['ops', 'system:authenticated'],
    });
  });

  it('refuses the token of a deleted account, and of the account recreated under its name', async () => {
    await createAccount('short-lived');
    const token = await requestToken('short-lived');
    expect((await whoAmI(token)).status).toBe(201);
    expect((await http(server.url, 'DELETE', `${SA_PATH}/short-lived`)).status).toBe(200);
    expect((await whoAmI(token)).status).toBe(401);
    await createAccount('short-lived');
    expect((await whoAmI(token)).status).toBe(401);
    expect((await whoAmI(await requestToken('short-lived'))).status).toBe(201);
  });

  it('refuses a token for another audience, an expired one, and one whose signature was changed', async () => {
    const other = await requestToken('robot', { audiences: ['https://vault.example.com'] });
    expect(decodePart(other.split('.')[1]).aud).toEqual(['https://vault.example.com']);
    expect((await whoAmI(other)).status).toBe(401);
    const account = (await http(server.url, 'GET', `${SA_PATH}/robot`)).json;
    const claim = { namespace: NAMESPACE, serviceaccount: { name: 'robot', uid: account.metadata.uid } };
    const tokens = server.app.get(ServiceAccountTokens);
    const expired = await tokens.issue(claim, [ISSUER], 600, Date.now() - 2 * 3600 * 1000);
    expect((await whoAmI(expired.token)).status).toBe(401);
    const fresh = await tokens.issue(claim, [ISSUER], 600, Date.now());
    expect((await whoAmI(fresh.token)).status).toBe(201);
    const [header, payload] = fresh.token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...decodePart(payload), sub: 'system:serviceaccount:kube-system:admin' })).toString('base64url');
    expect((await whoAmI(`${header}.${forged}.${fresh.token.split('.')[2]}`)).status).toBe(401);
  });

  itWithSecrets('binds a token to a Secret: the Secret must exist with the uid given, and its deletion revokes the token', async () => {
    const secret = await http(server.url, 'POST', `/api/v1/namespaces/${NAMESPACE}/secrets`, { body: { metadata: { name: 'binding' }, data: {} } });
    expect(secret.status).toBe(201);
    const ref = { kind: 'Secret', apiVersion: 'v1', name: 'binding', uid: secret.json.metadata.uid };
    await createAccount('bound');
    const token = await requestToken('bound', { boundObjectRef: ref });
    expect(decodePart(token.split('.')[1])['kubernetes.io'].secret).toEqual({ name: 'binding', uid: ref.uid });
    expect((await whoAmI(token)).status).toBe(201);
    const stale = await http(server.url, 'POST', tokenPath('bound'), { body: { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', spec: { boundObjectRef: { ...ref, uid: 'other' } } } });
    expect(stale.status).toBe(409);
    const missing = await http(server.url, 'POST', tokenPath('bound'), { body: { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', spec: { boundObjectRef: { ...ref, name: 'none' } } } });
    expect({ status: missing.status, message: missing.json.message }).toEqual({ status: 404, message: 'secrets "none" not found' });
    expect((await http(server.url, 'DELETE', `/api/v1/namespaces/${NAMESPACE}/secrets/binding`)).status).toBe(200);
    expect((await whoAmI(token)).status).toBe(401);
  });

  it('authorizes a token by RBAC bindings whose subject is the ServiceAccount, and needs create on serviceaccounts/token', async () => {
    const token = await requestToken('robot');
    const deployments = (namespace: string) => https('GET', `/apis/extensions/v1beta1/namespaces/${namespace}/deployments`, token);
    const refused = await deployments(NAMESPACE);
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe(
      `deployments.extensions is forbidden: User "system:serviceaccount:${NAMESPACE}:robot" cannot list resource "deployments" in API group "extensions" in the namespace "${NAMESPACE}"`,
    );
    const binding = await http(server.url, 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${NAMESPACE}/rolebindings`, {
      body: { metadata: { name: 'robot-edit' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' }, subjects: [{ kind: 'ServiceAccount', name: 'robot' }] },
    });
    expect(binding.status).toBe(201);
    let allowed = await deployments(NAMESPACE);
    for (let i = 0; i < 50 && allowed.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      allowed = await deployments(NAMESPACE);
    }
    expect(allowed.status).toBe(200);
    expect((await deployments('team-b')).status).toBe(403);
    // edit grants the account tokens of its namespace's accounts; a user without a role gets none
    const own = await https('POST', tokenPath('builder'), token, { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', spec: {} });
    expect(own.status).toBe(201);
    const nobody = await https('POST', tokenPath('robot'), 'token-nobody', { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', spec: {} });
    expect(nobody.status).toBe(403);
    expect(nobody.json.message).toBe(
      `serviceaccounts "robot" is forbidden: User "nobody" cannot create resource "serviceaccounts/token" in API group "" in the namespace "${NAMESPACE}"`,
    );
  });

  it('serves the OIDC discovery documents to service accounts, whose keys verify a token with node crypto', async () => {
    const token = await requestToken('robot');
    const configuration = await https('GET', '/.well-known/openid-configuration', token);
    expect(configuration.status).toBe(200);
    expect(configuration.headers.get('content-type')).toBe('application/json');
    expect(configuration.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(configuration.json).toEqual({
      issuer: ISSUER,
      jwks_uri: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+\/openid\/v1\/jwks$/),
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
    });
    const jwks = await https('GET', '/openid/v1/jwks', token);
    expect(jwks.status).toBe(200);
    expect(jwks.headers.get('content-type')).toBe('application/jwk-set+json');
    expect(jwks.json.keys).toHaveLength(1);
    const [jwk] = jwks.json.keys;
    expect(Object.keys(jwk)).toEqual(['use', 'kty', 'kid', 'alg', 'n', 'e']);
    const [header, payload, signature] = token.split('.');
    expect(decodePart(header).kid).toBe(jwk.kid);
    const key = createPublicKey({ key: jwk, format: 'jwk' });
    expect(createHash('sha256').update(key.export({ type: 'spki', format: 'der' })).digest('base64url')).toBe(jwk.kid);
    expect(verify('sha256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url'))).toBe(true);
    // anonymous users and users without the discovery role get 403, as upstream's default policy says
    expect((await https('GET', '/openid/v1/jwks')).status).toBe(403);
    expect((await https('GET', '/.well-known/openid-configuration', 'token-nobody')).status).toBe(403);
  });

  it('keeps the default key in CERT_DIR: another instance started over it accepts the tokens', async () => {
    const token = await requestToken('robot');
    const again = await startTestServer(server.databaseUrl, env());
    try {
      const review = await http(again.secureUrl as string, 'POST', REVIEW_PATH, {
        body: { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' },
        headers: { authorization: `Bearer ${token}` },
        tls: { ca: serverCa },
      });
      expect(review.status).toBe(201);
      expect(review.json.status.userInfo.username).toBe(`system:serviceaccount:${NAMESPACE}:robot`);
    } finally {
      await again.close();
    }
  });
});

describe('service account tokens signed with an EC key and a given issuer and audiences, an old RSA key still verifying', () => {
  let work: string;
  let server: TestServer;
  const old = generateKeyPairSync('rsa', { modulusLength: 2048 });

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'pgkube-sa-ec-'));
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(join(work, 'sa-ec.key'), privateKey.export({ type: 'sec1', format: 'pem' }));
    writeFileSync(join(work, 'old.pub'), old.publicKey.export({ type: 'spki', format: 'pem' }));
    server = await startTestServer(undefined, {
      SECURE_PORT: '0',
      CERT_DIR: join(work, 'certs'),
      SERVICE_ACCOUNT_SIGNING_KEY_FILE: join(work, 'sa-ec.key'),
      SERVICE_ACCOUNT_KEY_FILE: `${join(work, 'sa-ec.key')},${join(work, 'old.pub')}`,
      SERVICE_ACCOUNT_ISSUER: 'https://issuer.example.com,https://old-issuer.example.com',
      API_AUDIENCES: 'pgkube,https://issuer.example.com',
      SERVICE_ACCOUNT_JWKS_URI: 'https://keys.example.com/jwks',
    });
    await createNamespaces(server.url, ['ops']);
  });

  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('signs with ES256, names the first issuer and the API audiences, and publishes the EC key', async () => {
    expect((await http(server.url, 'POST', '/api/v1/namespaces/ops/serviceaccounts', { body: { metadata: { name: 'ec' } } })).status).toBe(201);
    const answer = await http(server.url, 'POST', tokenPath('ec', 'ops'), { body: { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', spec: {} } });
    expect(answer.status).toBe(201);
    const [header, payload] = answer.json.status.token.split('.').slice(0, 2).map(decodePart);
    expect(header.alg).toBe('ES256');
    expect(payload).toMatchObject({ iss: 'https://issuer.example.com', aud: ['pgkube', 'https://issuer.example.com'] });
    expect(existsSync(join(work, 'certs', 'sa.key'))).toBe(false);
    const configuration = await http(server.url, 'GET', '/.well-known/openid-configuration');
    expect(configuration.json).toMatchObject({
      issuer: 'https://issuer.example.com',
      jwks_uri: 'https://keys.example.com/jwks',
      id_token_signing_alg_values_supported: ['ES256', 'RS256'],
    });
    const jwks = await http(server.url, 'GET', '/openid/v1/jwks');
    expect(jwks.json.keys).toEqual([
      { use: 'sig', kty: 'EC', kid: header.kid, crv: 'P-256', alg: 'ES256', x: expect.any(String), y: expect.any(String) },
      { use: 'sig', kty: 'RSA', kid: expect.any(String), alg: 'RS256', n: expect.any(String), e: 'AQAB' },
    ]);
  });

  it('accepts a token of the second issuer signed with the old key, for one of the API audiences only', async () => {
    const account = (await http(server.url, 'GET', '/api/v1/namespaces/ops/serviceaccounts/ec')).json;
    const kid = createHash('sha256').update(old.publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
    const now = Math.floor(Date.now() / 1000);
    const signWithOldKey = (aud: string[]) => {
      const claims = {
        aud,
        exp: now + 600,
        iat: now,
        iss: 'https://old-issuer.example.com',
        'kubernetes.io': { namespace: 'ops', serviceaccount: { name: 'ec', uid: account.metadata.uid } },
        nbf: now,
        sub: 'system:serviceaccount:ops:ec',
      };
      const signed = [{ alg: 'RS256', kid }, claims].map((part) => Buffer.from(JSON.stringify(part)).toString('base64url')).join('.');
      return `${signed}.${cryptoSign('sha256', Buffer.from(signed), old.privateKey).toString('base64url')}`;
    };
    const serverCa = readFileSync(join(work, 'certs', 'apiserver.crt'), 'utf8');
    const review = (token: string) =>
      http(server.secureUrl as string, 'POST', REVIEW_PATH, {
        body: { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' },
        headers: { authorization: `Bearer ${token}` },
        tls: { ca: serverCa },
      });
    const accepted = await review(signWithOldKey(['pgkube']));
    expect({ status: accepted.status, user: accepted.json.status?.userInfo?.username }).toEqual({ status: 201, user: 'system:serviceaccount:ops:ec' });
    expect((await review(signWithOldKey(['https://old-issuer.example.com']))).status).toBe(401);
  });
});
