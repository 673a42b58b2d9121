import { AppsV1Api, KubeConfig, PatchUtils, V1Deployment } from '@kubernetes/client-node';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { useTestServer } from './support/api';

/** The client libraries' AppsV1Api, unchanged, against apps/v1 served over extensions/v1beta1's objects. */
jest.setTimeout(60_000);

const PYTHON = '/usr/bin/python3'; // Debian's, which has python3-kubernetes (scripts/test-tools.sh installs it)
const NS = 'apps-clients';
const { call, server } = useTestServer([NS]);

const deployment = (name: string): V1Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
  },
});

describe('@kubernetes/client-node AppsV1Api', () => {
  const api = () => {
    const config = new KubeConfig();
    config.loadFromOptions({
      clusters: [{ name: 'pgkube', server: server().url }],
      users: [{ name: 'anyone' }],
      contexts: [{ name: 'pgkube', cluster: 'pgkube', user: 'anyone' }],
      currentContext: 'pgkube',
    });
    return config.makeApiClient(AppsV1Api);
  };

  it('creates, reads, lists and patches Deployments, and reads what extensions wrote', async () => {
    const apps = api();
    const created = (await apps.createNamespacedDeployment(NS, deployment('node-web'))).body;
    expect(created.spec?.revisionHistoryLimit).toBe(10);
    const read = (await apps.readNamespacedDeployment('node-web', NS)).body;
    expect(read).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { uid: created.metadata?.uid } });
    const patched = (
      await apps.patchNamespacedDeployment('node-web', NS, { spec: { replicas: 3 } }, undefined, undefined, undefined, undefined, undefined, {
        headers: { 'Content-type': PatchUtils.PATCH_FORMAT_STRATEGIC_MERGE_PATCH },
      })
    ).body;
    expect(patched.spec?.replicas).toBe(3);
    await call('POST', `/apis/extensions/v1beta1/namespaces/${NS}/deployments`, { ...deployment('from-ext'), apiVersion: 'extensions/v1beta1' });
    const listed = (await apps.listNamespacedDeployment(NS)).body;
    expect(listed.items.map((d) => d.metadata?.name)).toEqual(['from-ext', 'node-web']);
    const scale = (await apps.readNamespacedDeploymentScale('from-ext', NS)).body;
    expect(scale).toMatchObject({ apiVersion: 'autoscaling/v1', spec: { replicas: 1 }, status: { selector: 'app=from-ext' } });
  });
});

describe('python3-kubernetes AppsV1Api', () => {
  it('creates, reads, patches, scales and lists Deployments and DaemonSets', async () => {
    const { stdout } = await promisify(execFile)(PYTHON, [join(__dirname, 'fixtures', 'apps-client.py'), server().url, NS]);
    expect(stdout.split('\n')).toEqual([
      'created py-web 10 25%',
      'read apps/v1 Deployment True',
      'patched 3',
      'scale 3 app=py',
      "listed DeploymentList ['from-ext', 'node-web', 'py-web']",
      'daemonset RollingUpdate 1',
      "daemonsets ['py-agent']",
      '',
    ]);
  });
});
