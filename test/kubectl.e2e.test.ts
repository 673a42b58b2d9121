import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { useTestServer } from './support/api';
import { itemPath, KindCase, KINDS } from './support/kinds';
import { KUBECTL_1_20, kubectl, KubectlClient, KubectlResult, KUBECTLS } from './support/kubectl';
import { NOT_DEFAULT_POLICY } from './support/default-policy';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// Real clients against the server: the kubectl on the PATH and kubectl 1.20, the oldest supported one (CI fetches
// it with scripts/fetch-kubectl-1.20.sh and must have it; elsewhere its tests are skipped when it is missing).

if (process.env.CI && !KUBECTLS.some((client) => client.binary === KUBECTL_1_20)) {
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
  { NAME: 'configmaps', SHORTNAMES: 'cm', APIVERSION: 'v1', NAMESPACED: 'true', KIND: 'ConfigMap' },
  { NAME: 'events', SHORTNAMES: 'ev', APIVERSION: 'v1', NAMESPACED: 'true', KIND: 'Event' },
  { NAME: 'namespaces', SHORTNAMES: 'ns', APIVERSION: 'v1', NAMESPACED: 'false', KIND: 'Namespace' },
  { NAME: 'replicationcontrollers', SHORTNAMES: 'rc', APIVERSION: 'v1', NAMESPACED: 'true', KIND: 'ReplicationController' },
  { NAME: 'secrets', SHORTNAMES: '', APIVERSION: 'v1', NAMESPACED: 'true', KIND: 'Secret' },
  { NAME: 'serviceaccounts', SHORTNAMES: 'sa', APIVERSION: 'v1', NAMESPACED: 'true', KIND: 'ServiceAccount' },
  { NAME: 'customresourcedefinitions', SHORTNAMES: 'crd,crds', APIVERSION: 'apiextensions.k8s.io/v1', NAMESPACED: 'false', KIND: 'CustomResourceDefinition' },
  { NAME: 'daemonsets', SHORTNAMES: '', APIVERSION: 'apps/v1', NAMESPACED: 'true', KIND: 'DaemonSet' },
  { NAME: 'deployments', SHORTNAMES: '', APIVERSION: 'apps/v1', NAMESPACED: 'true', KIND: 'Deployment' },
  { NAME: 'replicasets', SHORTNAMES: '', APIVERSION: 'apps/v1', NAMESPACED: 'true', KIND: 'ReplicaSet' },
  { NAME: 'selfsubjectreviews', SHORTNAMES: '', APIVERSION: 'authentication.k8s.io/v1', NAMESPACED: 'false', KIND: 'SelfSubjectReview' },
  { NAME: 'localsubjectaccessreviews', SHORTNAMES: '', APIVERSION: 'authorization.k8s.io/v1', NAMESPACED: 'true', KIND: 'LocalSubjectAccessReview' },
  { NAME: 'selfsubjectaccessreviews', SHORTNAMES: '', APIVERSION: 'authorization.k8s.io/v1', NAMESPACED: 'false', KIND: 'SelfSubjectAccessReview' },
  { NAME: 'selfsubjectrulesreviews', SHORTNAMES: '', APIVERSION: 'authorization.k8s.io/v1', NAMESPACED: 'false', KIND: 'SelfSubjectRulesReview' },
  { NAME: 'subjectaccessreviews', SHORTNAMES: '', APIVERSION: 'authorization.k8s.io/v1', NAMESPACED: 'false', KIND: 'SubjectAccessReview' },
  { NAME: 'leases', SHORTNAMES: '', APIVERSION: 'coordination.k8s.io/v1', NAMESPACED: 'true', KIND: 'Lease' },
  { NAME: 'events', SHORTNAMES: 'ev', APIVERSION: 'events.k8s.io/v1', NAMESPACED: 'true', KIND: 'Event' },
  { NAME: 'daemonsets', SHORTNAMES: 'ds', APIVERSION: 'extensions/v1beta1', NAMESPACED: 'true', KIND: 'DaemonSet' },
  { NAME: 'deployments', SHORTNAMES: 'deploy', APIVERSION: 'extensions/v1beta1', NAMESPACED: 'true', KIND: 'Deployment' },
  { NAME: 'ingresses', SHORTNAMES: 'ing', APIVERSION: 'extensions/v1beta1', NAMESPACED: 'true', KIND: 'Ingress' },
  { NAME: 'networkpolicies', SHORTNAMES: 'netpol', APIVERSION: 'extensions/v1beta1', NAMESPACED: 'true', KIND: 'NetworkPolicy' },
  { NAME: 'podsecuritypolicies', SHORTNAMES: 'psp', APIVERSION: 'extensions/v1beta1', NAMESPACED: 'false', KIND: 'PodSecurityPolicy' },
  { NAME: 'replicasets', SHORTNAMES: 'rs', APIVERSION: 'extensions/v1beta1', NAMESPACED: 'true', KIND: 'ReplicaSet' },
  { NAME: 'thirdpartyresources', SHORTNAMES: '', APIVERSION: 'extensions/v1beta1', NAMESPACED: 'false', KIND: 'ThirdPartyResource' },
  { NAME: 'clusters', SHORTNAMES: '', APIVERSION: 'federation/v1beta1', NAMESPACED: 'false', KIND: 'Cluster' },
  { NAME: 'ingressclasses', SHORTNAMES: '', APIVERSION: 'networking.k8s.io/v1', NAMESPACED: 'false', KIND: 'IngressClass' },
  { NAME: 'ingresses', SHORTNAMES: '', APIVERSION: 'networking.k8s.io/v1', NAMESPACED: 'true', KIND: 'Ingress' },
  { NAME: 'networkpolicies', SHORTNAMES: '', APIVERSION: 'networking.k8s.io/v1', NAMESPACED: 'true', KIND: 'NetworkPolicy' },
  { NAME: 'podsecuritypolicies', SHORTNAMES: '', APIVERSION: 'policy/v1beta1', NAMESPACED: 'false', KIND: 'PodSecurityPolicy' },
  { NAME: 'clusterrolebindings', SHORTNAMES: '', APIVERSION: 'rbac.authorization.k8s.io/v1', NAMESPACED: 'false', KIND: 'ClusterRoleBinding' },
  { NAME: 'clusterroles', SHORTNAMES: '', APIVERSION: 'rbac.authorization.k8s.io/v1', NAMESPACED: 'false', KIND: 'ClusterRole' },
  { NAME: 'rolebindings', SHORTNAMES: '', APIVERSION: 'rbac.authorization.k8s.io/v1', NAMESPACED: 'true', KIND: 'RoleBinding' },
  { NAME: 'roles', SHORTNAMES: '', APIVERSION: 'rbac.authorization.k8s.io/v1', NAMESPACED: 'true', KIND: 'Role' },
];

describe.each(KUBECTLS)('kubectl $tag', (client: KubectlClient) => {
  // the tests' own objects, versions and events are compared exactly: no deployment controller writes besides
  const { call, server } = useTestServer([], WITHOUT_DEPLOYMENT_CONTROLLER);
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'pgkube-kubectl-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const run = (...args: string[]) => kubectl(client, server().url, args);
  const succeeded = (result: KubectlResult) => {
    expect({ code: result.code, stderr: result.stderr.replace(/^WARNING: version difference.*\n/m, '') }).toEqual({ code: 0, stderr: '' });
    return result.stdout;
  };

  it('version shows the server as 1.7', async () => {
    const output = succeeded(await run('version'));
    expect(output).toMatch(/Server Version: .*v1\.7\.4/);
  });

  it('api-resources lists every resource served (the two 1.7 groups, core v1 replicationcontrollers, namespaces, events, configmaps, secrets and serviceaccounts, the review kinds, RBAC, CRDs, networking.k8s.io and policy)', async () => {
    const rows = parseTable(succeeded(await run('api-resources')));
    expect(rows).toEqual(EXPECTED_RESOURCES);
  });

  it('get takes the short names, netpol among them', async () => {
    const got = await run('get', 'netpol', '--namespace=nowhere');
    expect({ code: got.code, stderr: got.stderr.replace(/^WARNING: version difference.*\n/m, '') }).toEqual({ code: 0, stderr: 'No resources found in nowhere namespace.\n' });
  });

  describe.each(KINDS.map((k) => [k.kind, k] as [string, KindCase]))('%s', (_kind, k) => {
    const name = k.manifest.metadata.name as string;
    const resource = `${k.resource}.${k.group}`;
    const scope = k.namespaced ? ['--namespace=default'] : [];
    const printed = `${k.kind.toLowerCase()}.${k.group}`;

    it('create -f, get, get -o json/yaml, replace -f, delete', async () => {
      expect(succeeded(await run('create', '-f', k.file, ...scope))).toBe(`${printed}/${name} created\n`);

      const table = parseTable(succeeded(await run('get', resource, ...scope)));
      // the kind's own columns are checked in kubectl-table.e2e.test.ts
      expect(table).toHaveLength(1);
      expect(table[0].NAME).toBe(name);

      const asJson = JSON.parse(succeeded(await run('get', resource, name, '-o', 'json', ...scope)));
      expect(asJson).toMatchObject({ kind: k.kind, apiVersion: `${k.group}/v1beta1`, metadata: { name, selfLink: itemPath(k, name) } });
      const asYaml = load(succeeded(await run('get', resource, name, '-o', 'yaml', ...scope)));
      expect(asYaml).toEqual(asJson);

      asJson.metadata.labels = { ...asJson.metadata.labels, replaced: 'by-kubectl' };
      const edited = join(work, `${k.resource}.json`);
      writeFileSync(edited, JSON.stringify(asJson));
      expect(succeeded(await run('replace', '-f', edited, ...scope))).toBe(`${printed}/${name} replaced\n`);
      const stored = await call('GET', itemPath(k, name));
      expect(stored.json.metadata.labels.replaced).toBe('by-kubectl');

      expect(succeeded(await run('delete', resource, name, ...scope))).toBe(`${printed} "${name}" deleted\n`);
      const gone = await run('get', resource, name, ...scope);
      expect(gone.code).toBe(1);
      expect(gone.stderr).toContain(`Error from server (NotFound): ${resource} "${name}" not found`);
      expect(await server().sql(`SELECT name FROM objects WHERE ${NOT_DEFAULT_POLICY}`)).toEqual([]);
    });
  });
});
