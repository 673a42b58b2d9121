import { useTestServer } from './support/api';
import { collectionPath, itemPath, kindNamed } from './support/kinds';
import { kubectl, KUBECTLS, startKubectl } from './support/kubectl';

// Namespaces with kubectl 1.32 and 1.20: create, get, delete (the content goes, a watcher sees it go), and a
// namespace that does not exist refused as a current cluster refuses it.

const { call, server } = useTestServer();
const DEPLOYMENT = kindNamed('Deployment');

/** The cells of a printed line: kubectl separates columns by at least two spaces. */
const cells = (line: string) => line.trim().split(/\s{2,}/);
const withoutVersionWarning = (stderr: string) => stderr.replace(/^WARNING: version difference.*\n/m, '');

describe.each(KUBECTLS)('kubectl $tag', (client) => {
  const run = (args: string[], input = '') => kubectl(client, server().url, args, input);
  const namespace = `team-${client.tag}`;

  it('creates a namespace and lists it with NAME STATUS AGE, by its short name too', async () => {
    const created = await run(['create', 'namespace', namespace]);
    expect({ code: created.code, stdout: created.stdout, stderr: withoutVersionWarning(created.stderr) }).toEqual({ code: 0, stdout: `namespace/${namespace} created\n`, stderr: '' });
    const got = await run(['get', 'ns']);
    expect(got.code).toBe(0);
    const [header, ...rows] = got.stdout.trim().split('\n');
    expect(cells(header)).toEqual(['NAME', 'STATUS', 'AGE']);
    const names = rows.map((row) => cells(row)[0]);
    expect(names).toEqual(expect.arrayContaining(['default', 'kube-node-lease', 'kube-public', 'kube-system', namespace]));
    expect(cells(rows.find((row) => row.startsWith(`${namespace} `)) as string).slice(0, 2)).toEqual([namespace, 'Active']);
    const yaml = await run(['get', 'namespace', namespace, '-o', 'jsonpath={.spec.finalizers} {.metadata.labels}']);
    expect(yaml.stdout).toContain('kubernetes');
    expect(yaml.stdout).toContain(`"kubernetes.io/metadata.name":"${namespace}"`);
  });

  it('refuses -n with a namespace that does not exist', async () => {
    const refused = await run(['create', '-n', `missing-${client.tag}`, '-f', '-'], JSON.stringify(DEPLOYMENT.manifest));
    expect(refused.code).not.toBe(0);
    expect(withoutVersionWarning(refused.stderr)).toBe(`Error from server (NotFound): error when creating "STDIN": namespaces "missing-${client.tag}" not found\n`);
  });

  it('deletes a namespace with its content, which a watcher sees go', async () => {
    expect((await call('POST', collectionPath(DEPLOYMENT, namespace), DEPLOYMENT.manifest)).status).toBe(201);
    const roles = `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/roles`;
    expect((await call('POST', roles, { metadata: { name: 'reader' }, rules: [] })).status).toBe(201);
    const watching = startKubectl(client, server().url, ['get', 'deployments', '-n', namespace, '-w', '--output-watch-events', '--no-headers']);
    try {
      expect((await watching.waitForLines(1))[0]).toMatch(/^ADDED\s+web\s/);
      const deleted = await run(['delete', 'namespace', namespace, '--timeout=30s']);
      expect({ code: deleted.code, stdout: deleted.stdout }).toEqual({ code: 0, stdout: `namespace "${namespace}" deleted\n` });
      for (let count = 2; !watching.lines.some((line) => line.startsWith('DELETED')); count++) await watching.waitForLines(count);
      expect(watching.lines.find((line) => line.startsWith('DELETED'))).toMatch(/^DELETED\s+web\s/);
    } finally {
      watching.stop();
    }
    expect((await call('GET', `/api/v1/namespaces/${namespace}`)).status).toBe(404);
    expect((await call('GET', itemPath(DEPLOYMENT, DEPLOYMENT.manifest.metadata.name, namespace))).status).toBe(404);
    expect((await call('GET', `${roles}/reader`)).status).toBe(404);
    const again = await run(['get', 'deployments', '-n', namespace]);
    expect(withoutVersionWarning(again.stderr)).toBe(`No resources found in ${namespace} namespace.\n`);
  });

  it('explains a namespace from the OpenAPI documents', async () => {
    const explained = await run(['explain', 'namespace.status']);
    expect(explained.code).toBe(0);
    expect(explained.stdout).toMatch(/KIND:\s+Namespace/);
    expect(explained.stdout).toContain('phase');
    expect(explained.stdout).toContain('conditions');
  });

  it('refuses to delete default', async () => {
    const refused = await run(['delete', 'namespace', 'default']);
    expect(refused.code).not.toBe(0);
    expect(withoutVersionWarning(refused.stderr)).toBe('Error from server (Forbidden): namespaces "default" is forbidden: this namespace may not be deleted\n');
  });
});
