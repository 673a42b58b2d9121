import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useTestServer } from './support/api';
import { kubectl, kubectlEdit, KUBECTLS, startKubectl } from './support/kubectl';

// networking.k8s.io/v1 manifests as current charts write them, with the kubectl on the PATH and with kubectl 1.20.

const { call, server } = useTestServer(['charts-1', 'charts-2']);

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', 'current-charts', name), 'utf8');
const cells = (line: string) => line.trim().split(/\s{2,}/);
const JSON_PATCH = { 'content-type': 'application/json-patch+json' };

describe.each(KUBECTLS.map((client, i) => ({ ...client, namespace: `charts-${i + 1}` })))('kubectl $tag', (client) => {
  const run = (args: string[], input?: string) => kubectl(client, server().url, ['-n', client.namespace, ...args], input);
  const manifests = `${fixture('ingress.yaml')}---\n${fixture('networkpolicy.yaml')}`;

  afterAll(async () => {
    await call('DELETE', `/apis/extensions/v1beta1/namespaces/${client.namespace}/ingresses`);
    await call('DELETE', `/apis/extensions/v1beta1/namespaces/${client.namespace}/networkpolicies`);
  });

  it('applies networking.k8s.io/v1 manifests and gets them with upstream’s columns', async () => {
    const applied = await run(['apply', '-f', '-'], manifests);
    expect(applied.stderr).toBe('');
    expect(applied.stdout.trim().split('\n')).toEqual(['ingress.networking.k8s.io/chart-web created', 'networkpolicy.networking.k8s.io/chart-web created']);
    const got = await run(['get', 'ingresses.v1.networking.k8s.io']);
    expect(got.stderr).toBe('');
    const [header, row] = got.stdout.trim().split('\n');
    expect(cells(header)).toEqual(['NAME', 'CLASS', 'HOSTS', 'ADDRESS', 'PORTS', 'AGE']);
    expect(cells(row).slice(0, 4)).toEqual(['chart-web', 'nginx', 'chart.example.com', '80, 443']);
    // the same object through extensions/v1beta1
    const ext = await run(['get', 'ingresses.v1beta1.extensions', 'chart-web', '-o', 'jsonpath={.spec.rules[0].http.paths[1].backend.servicePort}']);
    expect(ext.stdout).toBe('http');
    const again = await run(['apply', '-f', '-'], manifests);
    expect(again.stdout.trim().split('\n')).toEqual(['ingress.networking.k8s.io/chart-web unchanged', 'networkpolicy.networking.k8s.io/chart-web unchanged']);
  });

  it('describes them', async () => {
    const ingress = await run(['describe', 'ingress.networking.k8s.io', 'chart-web']);
    expect(ingress.stderr).toBe('');
    // kubectl 1.20's describer prints no class
    if (client.tag !== 'v120') expect(ingress.stdout).toMatch(/Ingress Class:\s+nginx/);
    expect(ingress.stdout).toMatch(/chart\.example\.com\s*\n\s+\/\s+chart-web:80/);
    const policy = await run(['describe', 'networkpolicy.networking.k8s.io', 'chart-web']);
    expect(policy.stderr).toBe('');
    expect(policy.stdout).toMatch(/Policy Types:\s+Ingress, Egress/);
    expect(policy.stdout).toContain('10.0.0.0/8');
  });

  it('explains networking.k8s.io/v1 fields', async () => {
    const explained = await run(['explain', 'ingress.spec.defaultBackend', '--api-version=networking.k8s.io/v1']);
    expect(explained.stderr).toBe('');
    expect(explained.stdout).toMatch(/service\s+<(IngressServiceBackend|Object)>/);
    expect(explained.stdout).toMatch(/resource\s+<(TypedLocalObjectReference|Object)>/);
  });

  it('shows no drift in diff, then the change it would make', async () => {
    const same = await run(['diff', '-f', '-'], manifests);
    expect({ code: same.code, stdout: same.stdout }).toEqual({ code: 0, stdout: '' });
    const changed = await run(['diff', '-f', '-'], fixture('ingress.yaml').replace('ingressClassName: nginx', 'ingressClassName: traefik'));
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/-\s+ingressClassName: nginx\n\+\s+ingressClassName: traefik/);
  });

  it('applies server-side, recording the fields in networking.k8s.io/v1', async () => {
    const applied = await run(['apply', '--server-side', '--field-manager=chart', '--force-conflicts', '-f', '-'], manifests);
    expect(applied.stderr).toBe('');
    expect(applied.stdout.trim().split('\n')).toEqual(['ingress.networking.k8s.io/chart-web serverside-applied', 'networkpolicy.networking.k8s.io/chart-web serverside-applied']);
    const managed = await call('GET', `/apis/networking.k8s.io/v1/namespaces/${client.namespace}/ingresses/chart-web`);
    expect(managed.json.metadata.managedFields).toContainEqual(expect.objectContaining({ manager: 'chart', operation: 'Apply', apiVersion: 'networking.k8s.io/v1' }));
  });

  it('edits them through networking.k8s.io/v1, and extensions/v1beta1 serves the change', async () => {
    const edit = (object: string, expression: string) => kubectlEdit(client, server().url, ['-n', client.namespace, object], expression);
    expect(await edit('ingress.v1.networking.k8s.io/chart-web', 's/number: 80$/number: 8080/')).toEqual({ code: 0, stdout: 'ingress.networking.k8s.io/chart-web edited\n', stderr: '' });
    expect(await edit('networkpolicy.v1.networking.k8s.io/chart-web', 's/port: 5432$/port: 5433/')).toEqual({
      code: 0,
      stdout: 'networkpolicy.networking.k8s.io/chart-web edited\n',
      stderr: '',
    });
    const ingress = await call('GET', `/apis/extensions/v1beta1/namespaces/${client.namespace}/ingresses/chart-web`);
    expect(ingress.json.spec.rules[0].http.paths.map((path: any) => path.backend)).toEqual([
      { serviceName: 'chart-web', servicePort: 8080 },
      { serviceName: 'chart-api', servicePort: 'http' },
    ]);
    const policy = await call('GET', `/apis/extensions/v1beta1/namespaces/${client.namespace}/networkpolicies/chart-web`);
    expect(policy.json.spec.egress[0].ports).toEqual([
      { protocol: 'UDP', port: 53 },
      { protocol: 'TCP', port: 5433 },
    ]);
  });

  it.each([
    { watched: 'ingresses.v1.networking.k8s.io', port: '.backend.service.port.number', writer: 'extensions/v1beta1', patched: 'backend/servicePort' },
    { watched: 'ingresses.v1beta1.extensions', port: '.backend.servicePort', writer: 'networking.k8s.io/v1', patched: 'backend/service/port/number' },
  ])('watches $watched and sees a write through $writer', async ({ watched, port, writer, patched }) => {
    const columns = `custom-columns=NAME:.metadata.name,PORT:.spec.rules[0].http.paths[0]${port}`;
    const watch = startKubectl(client, server().url, ['-n', client.namespace, 'get', watched, 'chart-web', '-w', '--no-headers', '-o', columns]);
    try {
      const [before] = (await watch.waitForLines(1)).map(cells);
      const after = String(Number(before[1]) + 1);
      const path = `/apis/${writer}/namespaces/${client.namespace}/ingresses/chart-web`;
      const written = await call('PATCH', path, [{ op: 'replace', path: `/spec/rules/0/http/paths/0/${patched}`, value: Number(after) }], JSON_PATCH);
      expect(written.status).toBe(200);
      expect((await watch.waitForLines(2)).map(cells)).toEqual([before, ['chart-web', after]]);
    } finally {
      watch.stop();
    }
  });
});
