import { http } from './support/http';
import { KUBECTLS, kubectl } from './support/kubectl';
import { createNamespaces } from './support/namespaces';
import { startTestServer, TestServer } from './support/test-server';

const deployments = (ns: string) => `/apis/extensions/v1beta1/namespaces/${ns}/deployments`;
const deployment = (name: string) => ({
  metadata: { name },
  spec: { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
});

let server: TestServer;
const NAMES = ['a', 'b', 'c', 'd', 'e'];
beforeAll(async () => {
  server = await startTestServer();
  await createNamespaces(server.url, ['chunks']);
  for (const name of NAMES) expect((await http(server.url, 'POST', deployments('chunks'), { body: deployment(name) })).status).toBe(201);
});
afterAll(() => server.close());

describe.each(KUBECTLS)('kubectl ($tag)', (client) => {
  it.each([
    ['names', ['-o', 'name']],
    ['a table', ['--no-headers']],
  ])('get --chunk-size=2 printing %s reads every page', async (_, output) => {
    const result = await kubectl(client, server.url, ['-n', 'chunks', 'get', 'deployments', '--chunk-size=2', ...output, '-v=6']);
    const requests = result.stderr.split('\n').filter((line) => /GET .*\/deployments\?/.test(line));
    expect(requests).toHaveLength(3);
    expect(requests.slice(1).every((line) => line.includes('continue='))).toBe(true);
    const names = result.stdout.trim().split('\n').map((line) => line.split(/\s+/)[0].replace('deployment.extensions/', ''));
    expect(names).toEqual(NAMES);
  });
});
