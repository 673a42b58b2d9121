import { kubectl, KubectlClient, KUBECTLS, startKubectl } from './support/kubectl';
import { call, untilStatus, useTwoInstances } from './support/two-instances';

/**
 * kubectl 1.20 and current, against two instances over one database: a definition created through one instance
 * is used at once through the other (kubectl refreshes its discovery cache when a resource is new to it), then
 * got, watched, described, listed in api-resources, explained and deleted.
 */
const on = useTwoInstances();

/** The cells of a printed line: kubectl separates columns by at least two spaces. */
const cells = (line: string) => line.trim().split(/\s{2,}/);

const crdManifest = (group: string) => `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.${group}
spec:
  group: ${group}
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
    additionalPrinterColumns:
    - {name: Spec, type: string, jsonPath: .spec.cronSpec}
    - {name: Replicas, type: integer, jsonPath: .spec.replicas}
    schema:
      openAPIV3Schema:
        type: object
        description: A CronTab runs an image on a schedule.
        properties:
          spec:
            type: object
            description: What to run and when.
            properties:
              cronSpec: {type: string, description: The schedule in cron format.}
              image: {type: string}
              replicas: {type: integer, default: 1}
`;

const cronTabManifest = (group: string, name: string) => `
apiVersion: ${group}/v1
kind: CronTab
metadata:
  name: ${name}
spec:
  cronSpec: "* * * * */5"
  image: my-cron-image
`;

describe.each(KUBECTLS)('kubectl $tag', (client: KubectlClient) => {
  const group = `stable-${client.tag}.example.com`;
  const onA = (args: string[], input?: string) => kubectl(client, on.a.url, args, input);
  const onB = (args: string[], input?: string) => kubectl(client, on.b.url, args, input);

  it('creates a CustomResourceDefinition on one instance and an object of it on the other', async () => {
    expect(await onB(['get', 'crontabs', '-n', 'default'])).toMatchObject({ code: 1 }); // caches a discovery without it
    const crd = await onA(['create', '-f', '-'], crdManifest(group));
    expect(crd.stderr).toBe('');
    expect(crd.stdout.trim()).toBe(`customresourcedefinition.apiextensions.k8s.io/crontabs.${group} created`);
    await untilStatus(on.b, `/apis/${group}/v1/namespaces/default/crontabs`, 200);
    const created = await onB(['create', '-f', '-', '-n', 'default'], cronTabManifest(group, 'my-cron'));
    expect(created.stderr).toBe('');
    expect(created.stdout.trim()).toBe(`crontab.${group}/my-cron created`);
  });

  it('gets it with its printer columns, by its short name too', async () => {
    const got = await onA(['get', `crontabs.${group}`, '-n', 'default']);
    expect(got.stderr).toBe('');
    const [header, row] = got.stdout.trim().split('\n');
    expect(cells(header)).toEqual(['NAME', 'SPEC', 'REPLICAS']);
    expect(cells(row)).toEqual(['my-cron', '* * * * */5', '1']);
    const short = await onB(['get', `ct.${group}`, 'my-cron', '-n', 'default', '-o', 'jsonpath={.spec.replicas}']);
    expect(short.stdout).toBe('1');
  });

  it('watches it through the other instance', async () => {
    const watching = startKubectl(client, on.b.url, ['get', `crontabs.${group}`, '-n', 'default', '-w']);
    try {
      await watching.waitForLines(2);
      expect((await onA(['create', '-f', '-', '-n', 'default'], cronTabManifest(group, 'second'))).stderr).toBe('');
      const lines = await watching.waitForLines(3);
      expect(cells(lines[2])[0]).toBe('second');
    } finally {
      watching.stop();
    }
  });

  it('applies changes to it (a merge patch, as kubectl sends for custom objects)', async () => {
    const manifest = cronTabManifest(group, 'applied');
    expect((await onA(['apply', '-f', '-', '-n', 'default'], manifest)).stdout.trim()).toBe(`crontab.${group}/applied created`);
    const changed = await onB(['apply', '-f', '-', '-n', 'default'], manifest.replace('my-cron-image', 'other-image'));
    expect(changed.stderr).toBe('');
    expect(changed.stdout.trim()).toBe(`crontab.${group}/applied configured`);
    const got = await onA(['get', `crontabs.${group}`, 'applied', '-n', 'default', '-o', 'jsonpath={.spec.image}']);
    expect(got.stdout).toBe('other-image');
  });

  it('scales it', async () => {
    const scaled = await onA(['scale', `crontabs.${group}`, 'my-cron', '--replicas=3', '-n', 'default']);
    expect(scaled.stderr).toBe('');
    expect(scaled.stdout.trim()).toBe(`crontab.${group}/my-cron scaled`);
    const got = await onB(['get', `crontabs.${group}`, 'my-cron', '-n', 'default', '-o', 'jsonpath={.spec.replicas}']);
    expect(got.stdout).toBe('3');
  });

  it('describes it', async () => {
    const described = await onB(['describe', `crontabs.${group}`, 'my-cron', '-n', 'default']);
    expect(described.stdout).toMatch(/^Name:\s+my-cron$/m);
    expect(described.stdout).toMatch(/^API Version:\s+stable-.*\/v1$/m);
    expect(described.stdout).toMatch(/Cron Spec:\s+\* \* \* \* \*\/5/);
  });

  it('lists it in api-resources', async () => {
    const listed = await onA(['api-resources', `--api-group=${group}`]);
    expect(listed.stderr).toBe('');
    const [header, row] = listed.stdout.trim().split('\n');
    expect(cells(header)).toEqual(['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND']);
    expect(cells(row)).toEqual(['crontabs', 'ct', `${group}/v1`, 'true', 'CronTab']);
  });

  it('explains it from its schema', async () => {
    const explained = await onB(['explain', `crontabs.spec`, `--api-version=${group}/v1`]);
    expect(explained.stderr).toBe('');
    expect(explained.stdout).toContain('What to run and when.');
    expect(explained.stdout).toMatch(/cronSpec\s+<string>/);
    expect(explained.stdout).toContain('The schedule in cron format.');
    const definition = await onA(['explain', 'customresourcedefinitions.spec.names.shortNames']);
    expect(definition.stderr).toBe('');
    expect(definition.stdout).toContain('Short names for the resource');
  });

  it('deletes the definition, and with it its objects and its API on both instances', async () => {
    const deleted = await onB(['delete', 'crd', `crontabs.${group}`]);
    expect(deleted.stderr).toBe('');
    expect(deleted.stdout.trim()).toBe(`customresourcedefinition.apiextensions.k8s.io "crontabs.${group}" deleted`);
    await untilStatus(on.a, `/apis/${group}/v1/namespaces/default/crontabs`, 404);
    expect((await call(on.b, 'GET', `/apis/${group}`)).status).toBe(404);
    expect(await on.a.sql('SELECT name FROM objects WHERE api_group = $1', [group])).toEqual([]);
  });

  it('serves a ThirdPartyResource\'s objects the same way', async () => {
    const tprGroup = `tpr-${client.tag}.example.com`;
    const tpr = await onA(
      ['create', '-f', '-'],
      `{"apiVersion":"extensions/v1beta1","kind":"ThirdPartyResource","metadata":{"name":"cron-tab.${tprGroup}"},"versions":[{"name":"v1"}]}`,
    );
    expect(tpr.stderr).toBe('');
    await untilStatus(on.b, `/apis/${tprGroup}/v1/namespaces/default/crontabs`, 200);
    const created = await onB(['create', '-f', '-', '-n', 'default'], cronTabManifest(tprGroup, 'legacy'));
    expect(created.stderr).toBe('');
    const got = await onA(['get', `crontabs.${tprGroup}`, 'legacy', '-n', 'default', '-o', 'jsonpath={.spec.image}']);
    expect(got.stdout).toBe('my-cron-image');
    expect((await onB(['delete', 'thirdpartyresource', `cron-tab.${tprGroup}`])).stderr).toBe('');
    await untilStatus(on.a, `/apis/${tprGroup}/v1/namespaces/default/crontabs`, 404);
  });
});
