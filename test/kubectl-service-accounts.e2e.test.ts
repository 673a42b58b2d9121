import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { KUBECTL_1_20, kubectl, KubectlClient, KUBECTLS } from './support/kubectl';
import { createNamespaces } from './support/namespaces';
import { startTestServer, TestServer } from './support/test-server';

/**
 * ServiceAccounts with kubectl on the secure port (an administrator of the token file): `create serviceaccount`,
 * `get sa`, `auth can-i --as system:serviceaccount:…` before and after a RoleBinding to the account (current kubectl
 * and 1.20); with current kubectl, `create token` (and its refusals) and the token used with `--token`.
 */
jest.setTimeout(180_000);

const NAMESPACE = 'sa-e2e';

describe('service accounts with kubectl', () => {
  let work: string;
  let server: TestServer;
  let admin: string;
  let tokenOnly: string;

  /** A kubeconfig for the secure port with these user credentials. */
  function kubeconfig(name: string, user: Record<string, string>): string {
    const file = join(work, `${name}.kubeconfig`);
    const config = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'pgkube', cluster: { server: server.secureUrl, 'certificate-authority': join(work, 'certs', 'apiserver.crt') } }],
      users: [{ name, user }],
      contexts: [{ name, context: { cluster: 'pgkube', user: name, namespace: NAMESPACE } }],
      'current-context': name,
    };
    writeFileSync(file, dump(config));
    return file;
  }

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'pgkube-sa-e2e-'));
    writeFileSync(join(work, 'tokens.csv'), 'token-admin,admin,1,"system:masters"\n');
    server = await startTestServer(undefined, { SECURE_PORT: '0', CERT_DIR: join(work, 'certs'), TOKEN_AUTH_FILE: join(work, 'tokens.csv') });
    await createNamespaces(server.url, [NAMESPACE, 'elsewhere']);
    admin = kubeconfig('admin', { token: 'token-admin' });
    tokenOnly = kubeconfig('token-only', {});
  });

  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  describe.each(KUBECTLS)('kubectl $tag', (client: KubectlClient) => {
    const account = `bot-${client.tag}`;
    const user = `system:serviceaccount:${NAMESPACE}:${account}`;
    const asAdmin = (args: string[]) => kubectl(client, { kubeconfig: admin }, args);
    const withToken = (token: string, args: string[]) => kubectl(client, { kubeconfig: tokenOnly }, [`--token=${token}`, ...args]);
    const canIList = (namespace: string) => asAdmin(['auth', 'can-i', 'list', 'deployments.extensions', '--as', user, '-n', namespace]);

    it('creates a ServiceAccount and lists it as NAME SECRETS AGE', async () => {
      expect(await asAdmin(['create', 'serviceaccount', account])).toMatchObject({ code: 0, stdout: `serviceaccount/${account} created\n` });
      const listed = await asAdmin(['get', 'sa', account]);
      expect(listed.stderr).toBe('');
      const [header, row] = listed.stdout.trim().split('\n');
      expect(header.split(/\s+/)).toEqual(['NAME', 'SECRETS', 'AGE']);
      expect(row.split(/\s+/).slice(0, 2)).toEqual([account, '0']);
    });

    it('answers auth can-i --as the ServiceAccount as its RoleBinding says', async () => {
      expect(await canIList(NAMESPACE)).toMatchObject({ code: 1, stdout: 'no\n' });
      const bound = await asAdmin(['create', 'rolebinding', `${account}-view`, '--clusterrole=view', `--serviceaccount=${NAMESPACE}:${account}`]);
      expect(bound).toMatchObject({ code: 0 });
      let allowed = await canIList(NAMESPACE);
      for (let i = 0; i < 50 && allowed.stdout !== 'yes\n'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        allowed = await canIList(NAMESPACE);
      }
      expect(allowed).toMatchObject({ code: 0, stdout: 'yes\n' });
      expect(await canIList('elsewhere')).toMatchObject({ code: 1, stdout: 'no\n' });
      expect(await asAdmin(['auth', 'can-i', 'create', 'deployments.extensions', '--as', user])).toMatchObject({ code: 1, stdout: 'no\n' });
      // the issuer discovery role is bound to the group of every service account, which impersonation puts it in
      expect(await asAdmin(['auth', 'can-i', 'get', '/openid/v1/jwks', '--as', user])).toMatchObject({ code: 0, stdout: 'yes\n' });
      expect(await asAdmin(['auth', 'can-i', 'get', '/openid/v1/jwks', '--as', 'someone'])).toMatchObject({ code: 1, stdout: 'no\n' });
    });

    if (client.binary !== KUBECTL_1_20) {
      it('creates a token that authenticates as the ServiceAccount with --token', async () => {
        const created = await asAdmin(['create', 'token', account, '--duration=20m']);
        expect(created.stderr).toBe('');
        const token = created.stdout.trim();
        const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
        expect(claims).toMatchObject({ sub: user, 'kubernetes.io': { namespace: NAMESPACE, serviceaccount: { name: account } } });
        expect(claims.exp - claims.iat).toBe(1200);

        const whoami = await withToken(token, ['auth', 'whoami', '-o', 'json']);
        expect(JSON.parse(whoami.stdout).status.userInfo).toMatchObject({
          username: user,
          groups: ['system:serviceaccounts', `system:serviceaccounts:${NAMESPACE}`, 'system:authenticated'],
        });
        expect(await withToken(token, ['get', 'deployments'])).toMatchObject({ code: 0, stderr: 'No resources found in sa-e2e namespace.\n' });
        const refused = await withToken(token, ['get', 'deployments', '-n', 'elsewhere']);
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toContain(`User "${user}" cannot list resource "deployments" in API group "extensions" in the namespace "elsewhere"`);
        expect(await withToken(token, ['auth', 'can-i', 'list', 'deployments.extensions'])).toMatchObject({ code: 0, stdout: 'yes\n' });
      });

      it('reports what the server refuses in a token request', async () => {
        expect(await asAdmin(['create', 'token', account, '--duration=1m'])).toMatchObject({
          code: 1,
          stderr:
            'error: failed to create token: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes\n',
        });
        expect(await asAdmin(['create', 'token', 'nobody'])).toMatchObject({ code: 1, stderr: 'error: failed to create token: serviceaccounts "nobody" not found\n' });
        const token = (await asAdmin(['create', 'token', account, '--audience=https://vault.example.com'])).stdout.trim();
        const refused = await withToken(token, ['get', 'deployments']);
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toMatch(/Unauthorized/);
      });
    }
  });
});
