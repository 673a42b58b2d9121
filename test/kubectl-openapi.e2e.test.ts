import { useTestServer } from './support/api';
import { KINDS } from './support/kinds';
import { kubectl, KUBECTLS } from './support/kubectl';

// What kubectl reads from the OpenAPI documents: explain (1.20 reads v2 in protobuf, current kubectl v3) and the
// validation of manifests (client-side from v2 for 1.20, server-side fieldValidation for current kubectl).

const { server } = useTestServer();

const MISSPELLED = `apiVersion: extensions/v1beta1
kind: Deployment
metadata:
  name: misspelled-TAG
spec:
  replicas: 1
  template:
    metadata:
      labels: {app: misspelled}
    spec:
      containers:
      - name: web
        image: nginx
        imagePullPolicey: Always
`;

describe.each(KUBECTLS)('kubectl $tag', (client) => {
  const run = (args: string[], input?: string) => kubectl(client, server().url, args, input);

  it.each(KINDS)('explains $kind and its fields', async (k) => {
    const explained = await run(['explain', k.resource, `--api-version=${k.group}/v1beta1`]);
    expect(explained.stderr).toBe('');
    expect(explained.stdout).toMatch(new RegExp(`KIND:\\s+${k.kind}`));
    expect(explained.stdout).toContain('metadata');
  });

  it('explains nested fields, with their types and enums', async () => {
    const resources = await run(['explain', 'deployments.spec.template.spec.containers.resources']);
    expect(resources.stdout).toMatch(/limits\s+<map\[string\]/);
    const policy = await run(['explain', 'deployments.spec.template.spec.containers.imagePullPolicy']);
    expect(policy.stdout).toMatch(/imagePullPolicy\s+<string>/);
    const strategy = await run(['explain', 'daemonsets.spec.updateStrategy.rollingUpdate']);
    expect(strategy.stdout).toContain('maxUnavailable');
  });

  it('shows the description of each field, whether a scalar or a reference to a struct', async () => {
    const replicas = await run(['explain', 'deployments.spec.replicas']);
    expect(replicas.stderr).toBe('');
    expect(replicas.stdout).toContain('Number of pods the deployment keeps running; 1 by default.');
    expect(replicas.stdout).not.toMatch(/<no description>|<empty>/);
    const spec = await run(['explain', 'deployments.spec']);
    expect(spec.stdout).toContain('Desired state of the deployment.');
    expect(spec.stdout).toMatch(/replicas\s+<integer>\s+Number of pods the deployment keeps running/);
  });

  it('refuses a manifest with a misspelled field, and names the field', async () => {
    const manifest = MISSPELLED.replace('TAG', client.tag);
    const refused = await run(['apply', '-f', '-'], manifest);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('imagePullPolicey');
    expect((await run(['get', 'deployment', `misspelled-${client.tag}`])).code).not.toBe(0);
  });
});

it('warns of a misspelled field when current kubectl asks for warnings, and applies the rest', async () => {
  const current = KUBECTLS[0];
  const applied = await kubectl(current, server().url, ['apply', '--validate=warn', '-f', '-'], MISSPELLED.replace('TAG', 'warned'));
  expect(applied.code).toBe(0);
  expect(applied.stderr).toContain('Warning: unknown field "spec.template.spec.containers[0].imagePullPolicey"');
  expect(applied.stdout).toContain('deployment.extensions/misspelled-warned created');
});
