import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { kubectl, KUBECTLS } from './support/kubectl';
import { startTestServer, TestServer } from './support/test-server';

// kubectl 1.32 and 1.20 against a server that encrypts Secrets and ConfigMaps at rest (aesgcm).

const dir = mkdtempSync(join(tmpdir(), 'pgkube-kubectl-secrets-'));
let server: TestServer;

beforeAll(async () => {
  const config = join(dir, 'encryption.yaml');
  writeFileSync(
    config,
    `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets, configmaps]
    providers:
      - aesgcm:
          keys:
            - name: key1
              secret: ${randomBytes(32).toString('base64')}
      - identity: {}
`,
  );
  server = await startTestServer(undefined, { ENCRYPTION_PROVIDER_CONFIG: config });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The cells of a printed line: kubectl separates columns by at least two spaces. */
const cells = (line: string) => line.trim().split(/\s{2,}/);

describe.each(KUBECTLS)('kubectl $tag', (client) => {
  const run = (args: string[], input?: string) => kubectl(client, server.url, args, input);
  const config = `settings-${client.tag}`;
  const secret = `db-${client.tag}`;
  const password = `s3cr3t-${client.tag}`;

  it('creates a configmap and a generic secret from literals', async () => {
    const createdConfig = await run(['create', 'configmap', config, '--from-literal=mode=fast', '--from-literal=level=3']);
    expect(createdConfig.stderr).toBe('');
    expect(createdConfig.stdout.trim()).toBe(`configmap/${config} created`);
    const createdSecret = await run(['create', 'secret', 'generic', secret, `--from-literal=password=${password}`, '--from-literal=user=admin']);
    expect(createdSecret.stderr).toBe('');
    expect(createdSecret.stdout.trim()).toBe(`secret/${secret} created`);
    const stored = (await server.sql<{ text: string }>(`SELECT body::text AS text FROM objects WHERE name IN ($1, $2)`, [config, secret])).map((r) => r.text).join();
    expect(stored).not.toContain(Buffer.from(password).toString('base64'));
    expect(stored).not.toContain('fast');
    expect(stored).toContain('k8s:enc:aesgcm:v1:key1:');
  });

  it('gets them with their columns, by short name too', async () => {
    const configs = await run(['get', 'cm', config]);
    expect(configs.stderr).toBe('');
    const [header, row] = configs.stdout.trim().split('\n');
    expect(cells(header)).toEqual(['NAME', 'DATA', 'AGE']);
    expect(cells(row).slice(0, 2)).toEqual([config, '2']);
    const secrets = await run(['get', 'secrets', secret]);
    const [secretHeader, secretRow] = secrets.stdout.trim().split('\n');
    expect(cells(secretHeader)).toEqual(['NAME', 'TYPE', 'DATA', 'AGE']);
    expect(cells(secretRow).slice(0, 3)).toEqual([secret, 'Opaque', '2']);
    const byType = await run(['get', 'secrets', '--field-selector', 'type=Opaque', '-o', 'name']);
    expect(byType.stdout.split('\n')).toContain(`secret/${secret}`);
  });

  it('describes them: the configmap with its values, the secret with its sizes only', async () => {
    // without events, which are not this file's subject (and which a server without core v1 events cannot list)
    const described = await run(['describe', 'configmap', config, '--show-events=false']);
    expect(described.stderr).toBe('');
    expect(described.stdout).toMatch(new RegExp(`^Name:\\s+${config}$`, 'm'));
    expect(described.stdout).toMatch(/^mode:\n----\nfast$/m);
    const describedSecret = await run(['describe', 'secret', secret, '--show-events=false']);
    expect(describedSecret.stderr).toBe('');
    expect(describedSecret.stdout).toMatch(/^Type:\s+Opaque$/m);
    expect(describedSecret.stdout).toMatch(new RegExp(`^password:\\s+${password.length} bytes$`, 'm'));
    expect(describedSecret.stdout).not.toContain(password);
  });

  it('shows the value decrypted in -o yaml (base64 of the plaintext)', async () => {
    const yaml = await run(['get', 'secret', secret, '-o', 'yaml']);
    expect(yaml.stderr).toBe('');
    const object = load(yaml.stdout) as any;
    expect(Buffer.from(object.data.password, 'base64').toString()).toBe(password);
    expect(object.type).toBe('Opaque');
    const jsonpath = await run(['get', 'configmap', config, '-o', 'jsonpath={.data.mode}']);
    expect(jsonpath.stdout).toBe('fast');
  });

  it('explains both kinds from the server\'s OpenAPI', async () => {
    const stringData = await run(['explain', 'secrets.stringData']);
    expect(stringData.stderr).toBe('');
    expect(stringData.stdout).toContain('KIND:');
    expect(stringData.stdout).toMatch(/Secret/);
    expect(stringData.stdout).toContain('Write-only convenience');
    const binaryData = await run(['explain', 'configmaps.binaryData']);
    expect(binaryData.stdout).toContain('Configuration data as bytes');
  });

  it('applies a secret, its last-applied annotation encrypted at rest and plain to kubectl, then deletes both', async () => {
    const name = `applied-${client.tag}`;
    const manifest = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${name}\nstringData:\n  token: applied-${password}\n`;
    const applied = await run(['apply', '-f', '-'], manifest);
    expect(applied.stderr).toBe('');
    const [row] = await server.sql<{ text: string }>(`SELECT body::text AS text FROM objects WHERE name = $1`, [name]);
    expect(row.text).not.toContain(`applied-${password}`);
    const lastApplied = await run(['apply', 'view-last-applied', `secret/${name}`]);
    expect(lastApplied.stdout).toContain(`token: applied-${password}`);
    const deleted = await run(['delete', 'secret', name, secret, '--wait=false']);
    expect(deleted.stdout).toContain(`secret "${secret}" deleted`);
    expect((await run(['delete', 'configmap', config])).stdout).toContain(`configmap "${config}" deleted`);
  });
});
