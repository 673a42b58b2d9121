import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useTestServer } from './support/api';
import { kubectl, KubectlClient, kubectlEdit, KUBECTLS, startKubectl } from './support/kubectl';

/** kubectl, current and 1.20, with apps/v1 manifests as current Helm charts write them, over the same stored objects. */
jest.setTimeout(120_000);

const CHART = join(__dirname, 'fixtures', 'apps', 'chart-web.yaml');
const NS = 'apps-e2e';
const withoutSkew = (stderr: string) => stderr.replace(/^WARNING: version difference.*\n/m, '');

describe.each(KUBECTLS)('kubectl $tag and the apps group', (client: KubectlClient) => {
  const { call, server } = useTestServer([NS]);
  const run = (...args: string[]) => kubectl(client, server().url, [`--namespace=${NS}`, ...args]);
  const succeeded = async (...args: string[]) => {
    const result = await run(...args);
    expect({ code: result.code, stderr: withoutSkew(result.stderr) }).toEqual({ code: 0, stderr: '' });
    return result.stdout;
  };
  let work: string;
  beforeAll(() => (work = mkdtempSync(join(tmpdir(), 'pgkube-apps-'))));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('applies the chart’s apps/v1 manifests, and shows them through either group', async () => {
    expect(await succeeded('apply', '-f', CHART)).toBe('deployment.apps/web created\ndaemonset.apps/web-agent created\n');
    const both = await succeeded('get', 'deployments.v1beta1.extensions,deployments.v1.apps', '-o', 'name');
    expect(both).toBe('deployment.extensions/web\ndeployment.apps/web\n');
    // `get all` lists each object once, through apps
    const all = (await succeeded('get', 'all', '-o', 'name')).trim().split('\n');
    expect(all.filter((name) => /^(deployment|daemonset)\./.test(name)).sort()).toEqual(['daemonset.apps/web-agent', 'deployment.apps/web']);
    expect(all.filter((name) => name.includes('.extensions/'))).toEqual([]);
    const table = await succeeded('get', 'deployments.v1.apps');
    expect(table.split('\n')[0].split(/\s+/)).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
    expect(table).toMatch(/^web\s+0\/2\s+0\s+0\s+/m);
    const json = JSON.parse(await succeeded('get', 'deployment.v1.apps/web', '-o', 'json'));
    expect(json).toMatchObject({ apiVersion: 'apps/v1', spec: { revisionHistoryLimit: 10, progressDeadlineSeconds: 600 } });
    const ext = (await call('GET', `/apis/extensions/v1beta1/namespaces/${NS}/deployments/web`)).json;
    expect(ext.metadata.uid).toBe(json.metadata.uid);
    // applying again changes nothing, and says so
    expect(await succeeded('apply', '-f', CHART)).toBe('deployment.apps/web unchanged\ndaemonset.apps/web-agent unchanged\n');
  });

  it('describes, scales and edits through apps/v1', async () => {
    const described = await succeeded('describe', 'deployment.apps', 'web');
    expect(described).toMatch(/^Name:\s+web$/m);
    expect(described).toMatch(/^Selector:\s+app.kubernetes.io\/instance=release,app.kubernetes.io\/name=web$/m);
    expect(await succeeded('scale', 'deployment.apps/web', '--replicas=3')).toBe('deployment.apps/web scaled\n');
    expect((await call('GET', `/apis/extensions/v1beta1/namespaces/${NS}/deployments/web`)).json.spec.replicas).toBe(3);
    const edited = await kubectlEdit(client, server().url, [`--namespace=${NS}`, 'deployment.apps/web'], 's/nginx:1.27.0/nginx:1.27.1/');
    expect({ ...edited, stderr: withoutSkew(edited.stderr) }).toEqual({ code: 0, stdout: 'deployment.apps/web edited\n', stderr: '' });
    const read = (await call('GET', `/apis/apps/v1/namespaces/${NS}/deployments/web`)).json;
    expect(read.spec.template.spec.containers[0].image).toBe('nginx:1.27.1');
  });

  it('diffs a changed manifest, then applies it server-side', async () => {
    const changed = join(work, 'chart.yaml');
    writeFileSync(changed, readFileSync(CHART, 'utf8').replace('replicas: 2', 'replicas: 4'));
    const diff = await run('diff', '-f', changed);
    expect(withoutSkew(diff.stderr)).toBe('');
    expect(diff.code).toBe(1);
    expect(diff.stdout).toMatch(/^\+\s+replicas: 4$/m);
    const applied = await succeeded('apply', '--server-side', '--force-conflicts', '-f', changed);
    expect(applied).toBe('deployment.apps/web serverside-applied\ndaemonset.apps/web-agent serverside-applied\n');
    const managed = (await call('GET', `/apis/apps/v1/namespaces/${NS}/deployments/web`)).json;
    expect(managed.spec.replicas).toBe(4);
    expect(managed.metadata.managedFields).toEqual(expect.arrayContaining([expect.objectContaining({ manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1' })]));
  });

  it('watches through apps/v1 what is written through extensions', async () => {
    const watch = startKubectl(client, server().url, [`--namespace=${NS}`, 'get', 'deployments.v1.apps', 'web', '-w', '-o', 'name']);
    try {
      await watch.waitForLines(1);
      const patched = await call('PATCH', `/apis/extensions/v1beta1/namespaces/${NS}/deployments/web`, { metadata: { labels: { seen: 'yes' } } }, {
        'content-type': 'application/merge-patch+json',
      });
      expect(patched.status).toBe(200);
      expect(await watch.waitForLines(2)).toEqual(['deployment.apps/web', 'deployment.apps/web']);
    } finally {
      watch.stop();
    }
  });

  it('explains apps/v1 fields from the OpenAPI documents', async () => {
    const explained = await succeeded('explain', 'deployments.spec.revisionHistoryLimit', '--api-version=apps/v1');
    // 1.20 writes `VERSION: apps/v1`; later releases `GROUP: apps` and `VERSION: v1`
    expect(explained).toMatch(/^VERSION:\s+(apps\/)?v1$/m);
    expect(explained).toMatch(/^FIELD:\s+revisionHistoryLimit <integer>$/m);
  });

  it('shows the rollout history of an apps/v1 Deployment without failing to find the kind', async () => {
    const history = await run('rollout', 'history', 'deployment.apps/web');
    expect(withoutSkew(history.stderr)).not.toContain('no matches');
    expect(history.code).toBe(0);
    expect(history.stdout).toContain('deployment.apps/web');
  });
});
