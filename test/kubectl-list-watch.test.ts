import { http } from './support/http';
import { KUBECTLS, kubectl, startKubectl } from './support/kubectl';
import { createNamespaces } from './support/namespaces';
import { createTestDatabase, dropTestDatabase, startTestServer, TestServer, WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

const base = '/apis/extensions/v1beta1';
const deployments = (ns: string) => `${base}/namespaces/${ns}/deployments`;

function deployment(name: string, labels: Record<string, string>) {
  return {
    metadata: { name, labels },
    spec: { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
}

let databaseUrl: string;
let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  // the watch prints exactly the tests' own writes, made at the versions they read: no deployment controller writes besides
  a = await startTestServer(databaseUrl, WITHOUT_DEPLOYMENT_CONTROLLER);
  b = await startTestServer(databaseUrl, WITHOUT_DEPLOYMENT_CONTROLLER);
  const namespaces = KUBECTLS.flatMap(({ tag }) => [`sel-${tag}`, `watch-${tag}-same`, `watch-${tag}-other`]);
  await createNamespaces(a.url, namespaces);
});
afterAll(async () => {
  await a.close();
  await b.close();
  await dropTestDatabase(databaseUrl);
});

describe.each(KUBECTLS)('kubectl ($tag)', (client) => {
  it('lists with label and field selectors', async () => {
    const ns = `sel-${client.tag}`;
    for (const [name, labels] of [
      ['a', { app: 'a', tier: 'web' }],
      ['b', { app: 'b', tier: 'db' }],
      ['c', { app: 'c', tier: 'web' }],
      ['x', { app: 'a', tier: 'cache' }],
    ] as const) {
      expect((await http(a.url, 'POST', deployments(ns), { body: deployment(name, labels) })).status).toBe(201);
    }
    const names = async (...args: string[]) => {
      const result = await kubectl(client, a.url, ['-n', ns, 'get', 'deployments', '-o', 'name', ...args]);
      expect(result.stderr).toBe('');
      return result.stdout.trim().split('\n').filter(Boolean).sort();
    };
    expect(await names('-l', 'app in (a,b),tier!=db')).toEqual(['deployment.extensions/a', 'deployment.extensions/x']);
    expect(await names('--field-selector', 'metadata.name=x')).toEqual(['deployment.extensions/x']);
    expect(await names('-l', 'tier=web', '--field-selector', 'metadata.name!=a')).toEqual(['deployment.extensions/c']);
  });

  it.each([
    ['the same instance', () => [a, a]],
    ['the other instance', () => [a, b]],
  ])('get -w prints the changes made through %s', async (_, servers) => {
    const [writer, reader] = servers();
    const ns = `watch-${client.tag}-${writer === reader ? 'same' : 'other'}`;
    const watch = startKubectl(client, reader.url, ['-n', ns, 'get', 'deployments', '-w', '--output-watch-events', '--no-headers']);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1000)); // let kubectl list and start watching
      expect((await http(writer.url, 'POST', deployments(ns), { body: deployment('w', { step: '1' }) })).status).toBe(201);
      const current = (await http(writer.url, 'GET', `${deployments(ns)}/w`)).json;
      current.metadata.labels.step = '2';
      expect((await http(writer.url, 'PUT', `${deployments(ns)}/w`, { body: current })).status).toBe(200);
      await http(writer.url, 'DELETE', `${deployments(ns)}/w`, { body: { propagationPolicy: 'Background' } });
      const lines = await watch.waitForLines(3);
      expect(lines.map((line) => line.split(/\s+/).slice(0, 2).join(' '))).toEqual(['ADDED w', 'MODIFIED w', 'DELETED w']);
    } finally {
      watch.stop();
    }
  });
});
