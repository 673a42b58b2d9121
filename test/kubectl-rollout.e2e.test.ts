import { useTestServer } from './support/api';
import { kubectl, KUBECTL_1_20, KUBECTLS } from './support/kubectl';
import { until } from './support/until';

/**
 * kubectl's rollout commands over the ReplicaSets the deployment controller keeps: current kubectl through apps/v1,
 * kubectl 1.20 on a Deployment of extensions/v1beta1.
 */
jest.setTimeout(120_000);

const NS = 'rollout-e2e';
const withoutSkew = (stderr: string) => stderr.replace(/^WARNING: version difference.*\n/m, '');

/** A Deployment of extensions/v1beta1, as kubectl 1.20 creates it from a file. */
const EXTENSIONS_MANIFEST = JSON.stringify({
  apiVersion: 'extensions/v1beta1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1' }] } },
  },
});

const cases = [
  { client: KUBECTLS[0], resource: 'deployment.apps/web', create: ['create', 'deployment', 'web', '--image=nginx:1'] },
  ...KUBECTLS.filter((c) => c.binary === KUBECTL_1_20).map((client) => ({ client, resource: 'deployment.extensions/web', create: ['create', '-f', '-'] })),
];

describe.each(cases)('kubectl $client.tag: rollout of $resource', ({ client, resource, create }) => {
  const { call, server } = useTestServer([NS]);
  const run = (args: string[], input = '') => kubectl(client, server().url, [`--namespace=${NS}`, ...args], input);
  const succeeded = async (args: string[], input = '') => {
    const result = await run(args, input);
    expect({ code: result.code, stderr: withoutSkew(result.stderr) }).toEqual({ code: 0, stderr: '' });
    return result.stdout;
  };
  const replicaSets = async () => (await call('GET', `/apis/apps/v1/namespaces/${NS}/replicasets`)).json.items;
  const image = async () => (await call('GET', `/apis/apps/v1/namespaces/${NS}/deployments/web`)).json.spec.template.spec.containers[0].image;

  it('creates, sets the image twice, and lists three revisions', async () => {
    expect(await succeeded(create, EXTENSIONS_MANIFEST)).toBe(`${resource} created\n`);
    await until(async () => (await replicaSets()).length === 1);
    for (const [i, tag] of ['nginx:2', 'nginx:3'].entries()) {
      expect(await succeeded(['set', 'image', resource, `nginx=${tag}`])).toBe(`${resource} image updated\n`);
      await until(async () => (await replicaSets()).length === i + 2);
    }
    const history = await succeeded(['rollout', 'history', resource]);
    expect(history).toMatch(new RegExp(`^${resource} ?\\nREVISION\\s+CHANGE-CAUSE\\n1\\s+<none>\\n2\\s+<none>\\n3\\s+<none>\\n`));
    expect(await succeeded(['rollout', 'history', resource, '--revision=2'])).toMatch(/Image:\s+nginx:2/);
  });

  it('undoes to revision 1, which restores the first template as revision 4', async () => {
    expect(await succeeded(['rollout', 'undo', resource, '--to-revision=1'])).toBe(`${resource} rolled back\n`);
    expect(await image()).toBe('nginx:1');
    await until(async () => /\n4\s+<none>\n/.test((await run(['rollout', 'history', resource])).stdout));
    const history = await succeeded(['rollout', 'history', resource]);
    expect(history).toMatch(/\nREVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>\n4\s+<none>\n/);
    expect(await replicaSets()).toHaveLength(3); // the first ReplicaSet serves again: none made twice
  });

  it('pauses and resumes: no rollout while paused, no undo of a paused Deployment, the rollout once resumed', async () => {
    expect(await succeeded(['rollout', 'pause', resource])).toBe(`${resource} paused\n`);
    expect(await succeeded(['set', 'image', resource, 'nginx=nginx:4'])).toBe(`${resource} image updated\n`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await replicaSets()).toHaveLength(3);
    const undo = await run(['rollout', 'undo', resource]);
    expect(undo.code).toBe(1);
    expect(undo.stderr).toContain('you cannot rollback a paused deployment; resume it first');
    expect(await succeeded(['rollout', 'resume', resource])).toBe(`${resource} resumed\n`);
    await until(async () => (await replicaSets()).length === 4);
    await until(async () => /\n5\s+<none>\n/.test((await run(['rollout', 'history', resource])).stdout));
    expect(await image()).toBe('nginx:4');
  });
});
