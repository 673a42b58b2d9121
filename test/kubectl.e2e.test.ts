import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { http } from './support/http';
import { itemPath, KindCase, KINDS } from './support/kinds';
import { startTestServer, TestServer } from './support/test-server';

// Real clients against the server: the kubectl on the PATH and kubectl 1.20, the oldest supported one (CI fetches
// it with scripts/fetch-kubectl-1.20.sh; elsewhere its tests are skipped when it is missing).

const KUBECTL_1_20 = join(__dirname, '..', '.tools', 'kubectl-1.20', 'usr', 'bin', 'kubectl');

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

const CLIENTS = [
  { name: 'kubectl from the PATH', binary: 'kubectl', present: true },
  { name: 'kubectl 1.20', binary: KUBECTL_1_20, present: existsSync(KUBECTL_1_20) },
];

if (process.env.CI && !CLIENTS[1].present) {
  test('kubectl 1.20 is installed (scripts/fetch-kubectl-1.20.sh)', () => {
    throw new Error(`${KUBECTL_1_20} is missing: CI must run scripts/fetch-kubectl-1.20.sh before the tests`);
  });
}

/** The table kubectl printed, as one record per row keyed by the header's column titles. */
function parseTable(text: string): Record<string, string>[] {
  const [header, ...rows] = text.trimEnd().split('\n');
  const titles = [...header.matchAll(/\S+/g)].map((m) => ({ title: m[0], start: m.index }));
  return rows.map((row) =>
    Object.fromEntries(
      titles.map(({ title, start }, i) => [title, row.slice(start, titles[i + 1]?.start ?? row.length).trim()]),
    ),
  );
}

const EXPECTED_RESOURCES = [
  { NAME: 'daemonsets', SHORTNAMES: 'ds', APIVERSION: 'extensions/v1beta1', NAMESPACED: 'true', KIND: 'DaemonSet' },
  { NAME: 'deployments', SHORTNAMES: 'deploy', APIVERSION: 'extensions/v1beta1', NAMESPACED: 'true', KIND: 'Deployment' },
  { NAME: 'ingresses', SHORTNAMES: 'ing', APIVERSION: 'extensions/v1beta1', NAMESPACED: 'true', KIND: 'Ingress' },
  { NAME: 'networkpolicies', SHORTNAMES: '', APIVERSION: 'extensions/v1beta1', NAMESPACED: 'true', KIND: 'NetworkPolicy' },
  { NAME: 'podsecuritypolicies', SHORTNAMES: 'psp', APIVERSION: 'extensions/v1beta1', NAMESPACED: 'false', KIND: 'PodSecurityPolicy' },
  { NAME: 'replicasets', SHORTNAMES: 'rs', APIVERSION: 'extensions/v1beta1', NAMESPACED: 'true', KIND: 'ReplicaSet' },
  { NAME: 'thirdpartyresources', SHORTNAMES: '', APIVERSION: 'extensions/v1beta1', NAMESPACED: 'false', KIND: 'ThirdPartyResource' },
  { NAME: 'clusters', SHORTNAMES: '', APIVERSION: 'federation/v1beta1', NAMESPACED: 'false', KIND: 'Cluster' },
];

describe.each(CLIENTS.filter((c) => c.present))('$name', ({ binary }) => {
  let server: TestServer;
  let work: string;

  beforeAll(async () => {
    server = await startTestServer();
    work = mkdtempSync(join(tmpdir(), 'pgkube-kubectl-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** Runs kubectl against the test server, with no kubeconfig and a discovery cache of this client's own. */
  const kubectl = (...args: string[]) =>
    new Promise<Result>((resolve) => {
      const options = { env: { ...process.env, KUBECONFIG: '/dev/null', HOME: work }, timeout: 30_000 };
      execFile(binary, [`--server=${server.url}`, `--cache-dir=${join(work, 'cache')}`, ...args], options, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  const succeeded = (result: Result) => {
    expect({ code: result.code, stderr: result.stderr.replace(/^WARNING: version difference.*\n/m, '') }).toEqual({ code: 0, stderr: '' });
    return result.stdout;
  };

  it('version shows the server as 1.7', async () => {
    const output = succeeded(await kubectl('version'));
    expect(output).toMatch(/Server Version: .*v1\.7\.4/);
  });

  it('api-resources lists every resource of both groups', async () => {
    const rows = parseTable(succeeded(await kubectl('api-resources')));
    expect(rows).toEqual(EXPECTED_RESOURCES);
  });

  describe.each(KINDS.map((k) => [k.kind, k] as [string, KindCase]))('%s', (_kind, k) => {
    const name = k.manifest.metadata.name as string;
    const resource = `${k.resource}.${k.group}`;
    const scope = k.namespaced ? ['--namespace=default'] : [];
    const printed = `${k.kind.toLowerCase()}.${k.group}`;

    it('create -f, get, get -o json/yaml, replace -f, delete', async () => {
      expect(succeeded(await kubectl('create', '-f', k.file, ...scope))).toBe(`${printed}/${name} created\n`);

      const table = parseTable(succeeded(await kubectl('get', resource, ...scope)));
      expect(table).toEqual([{ NAME: name, AGE: expect.stringMatching(/^\d+s$/) }]);

      const asJson = JSON.parse(succeeded(await kubectl('get', resource, name, '-o', 'json', ...scope)));
      expect(asJson).toMatchObject({ kind: k.kind, apiVersion: `${k.group}/v1beta1`, metadata: { name, selfLink: itemPath(k, name) } });
      const asYaml = load(succeeded(await kubectl('get', resource, name, '-o', 'yaml', ...scope)));
      expect(asYaml).toEqual(asJson);

      asJson.metadata.labels = { ...asJson.metadata.labels, replaced: 'by-kubectl' };
      const edited = join(work, `${k.resource}.json`);
      writeFileSync(edited, JSON.stringify(asJson));
      expect(succeeded(await kubectl('replace', '-f', edited, ...scope))).toBe(`${printed}/${name} replaced\n`);
      const stored = await http(server.url, 'GET', itemPath(k, name));
      expect(stored.json.metadata.labels.replaced).toBe('by-kubectl');

      expect(succeeded(await kubectl('delete', resource, name, ...scope))).toBe(`${printed} "${name}" deleted\n`);
      const gone = await kubectl('get', resource, name, ...scope);
      expect(gone.code).toBe(1);
      expect(gone.stderr).toContain(`Error from server (NotFound): ${resource} "${name}" not found`);
      expect(await server.sql('SELECT name FROM objects')).toEqual([]);
    });
  });
});
