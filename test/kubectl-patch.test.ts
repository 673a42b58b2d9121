import { http } from './support/http';
import { itemPath, KindCase, KINDS } from './support/kinds';
import { kubectl, KubectlClient, KUBECTLS } from './support/kubectl';
import { startTestServer, TestServer, WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

let server: TestServer;
beforeAll(async () => {
  // the tests' own objects and versions are compared exactly: no deployment controller writes besides
  server = await startTestServer(undefined, WITHOUT_DEPLOYMENT_CONTROLLER);
});
afterAll(() => server.close());

const kind = (resource: string) => KINDS.find((k) => k.resource === resource) as KindCase;
const DEPLOYMENTS = kind('deployments');
const CLUSTERS = kind('clusters');

const stored = async (k: KindCase, name: string) => (await http(server.url, 'GET', itemPath(k, name))).json;

/** Runs kubectl and expects it to succeed. */
async function run(client: KubectlClient, args: string[], input?: string): Promise<string> {
  const result = await kubectl(client, server.url, args, input);
  expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: '' });
  return result.stdout;
}

const deployment = (name: string, containers: unknown[]) => {
  const manifest = structuredClone(DEPLOYMENTS.manifest);
  manifest.metadata.name = name;
  manifest.spec.template.spec.containers = containers;
  return JSON.stringify(manifest);
};

describe.each(KUBECTLS)('kubectl ($tag)', (client) => {
  const name = `web-${client.tag}`;

  it('apply, then apply again with containers added, changed and removed: exactly the new containers', async () => {
    await run(client, ['apply', '-f', '-'], deployment(name, DEPLOYMENTS.manifest.spec.template.spec.containers));
    const changed = [
      { name: 'logger', image: 'fluentd:1' },
      { name: 'nginx', image: 'nginx:1.15', ports: [{ containerPort: 80 }, { containerPort: 443 }] },
    ];
    await run(client, ['apply', '-f', '-'], deployment(name, changed));
    const object = await stored(DEPLOYMENTS, name);
    // exactly these containers, with the defaults the server adds
    expect(object.spec.template.spec.containers).toMatchObject(changed);
    expect(object.metadata.generation).toBe(2);
    const lastApplied = JSON.parse(object.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
    expect(lastApplied.spec.template.spec.containers).toEqual(changed);
  });

  it.each([
    ['json', '[{"op":"replace","path":"/spec/replicas","value":4},{"op":"test","path":"/spec/replicas","value":4}]', 4],
    ['merge', '{"spec":{"replicas":5}}', 5],
    ['strategic', '{"spec":{"replicas":6,"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.17"}]}}}}', 6],
  ])('patch --type=%s', async (type, body, replicas) => {
    await run(client, ['patch', 'deployment.extensions', name, `--type=${type}`, '-p', body]);
    const object = await stored(DEPLOYMENTS, name);
    expect(object.spec.replicas).toBe(replicas);
    expect(object.spec.template.spec.containers.map((c: any) => c.name)).toEqual(['logger', 'nginx']);
  });

  it('patch with a failing test operation is refused and changes nothing', async () => {
    const before = await stored(DEPLOYMENTS, name);
    const result = await kubectl(client, server.url, [
      'patch', 'deployment.extensions', name, '--type=json', '-p', '[{"op":"test","path":"/spec/replicas","value":99}]',
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('Test operation failed');
    expect((await stored(DEPLOYMENTS, name)).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  });

  it('label and annotate', async () => {
    await run(client, ['label', 'deployment.extensions', name, 'env=prod']);
    await run(client, ['annotate', 'deployment.extensions', name, 'note=hello']);
    let object = await stored(DEPLOYMENTS, name);
    expect(object.metadata.labels).toEqual({ app: 'web', env: 'prod' });
    expect(object.metadata.annotations.note).toBe('hello');
    await run(client, ['label', 'deployment.extensions', name, 'env=dev', '--overwrite']);
    await run(client, ['annotate', 'deployment.extensions', name, 'note-']);
    object = await stored(DEPLOYMENTS, name);
    expect(object.metadata.labels.env).toBe('dev');
    expect(object.metadata.annotations.note).toBeUndefined();
  });

  it('apply on a Cluster (a merge patch)', async () => {
    const clusterName = `e2e-${client.tag}`;
    const cluster = (address: string) => {
      const manifest = structuredClone(CLUSTERS.manifest);
      manifest.metadata.name = clusterName;
      manifest.spec.serverAddressByClientCIDRs[0].serverAddress = address;
      return JSON.stringify(manifest);
    };
    await run(client, ['apply', '-f', '-'], cluster('https://10.0.0.1'));
    await run(client, ['apply', '-f', '-'], cluster('https://10.0.0.2'));
    const object = await stored(CLUSTERS, clusterName);
    expect(object.spec.serverAddressByClientCIDRs).toEqual([{ clientCIDR: '0.0.0.0/0', serverAddress: 'https://10.0.0.2' }]);
    expect(object.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).toContain('10.0.0.2');
  });
});
