import { useTestServer } from './support/api';
import { dbState } from './support/db-state';
import { collectionPath, itemPath, kindNamed } from './support/kinds';
import { manifestFiles } from './support/manifest-files';
import { kubectl, KUBECTLS, KubectlResult } from './support/kubectl';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// what the tests' own requests wrote is compared with the whole database: no controller writes besides
const { call, server } = useTestServer([], WITHOUT_DEPLOYMENT_CONTROLLER);
const deployment = kindNamed('Deployment');
const WEB = itemPath(deployment, 'web');

const manifestFile = manifestFiles(deployment, 'dry-run');

describe.each(KUBECTLS)('kubectl $tag', (client) => {
  const run = (args: string[]) => kubectl(client, server().url, args);

  /** Runs kubectl and checks that the database did not change at all. */
  async function changesNothing(args: string[]): Promise<KubectlResult> {
    const before = await dbState(server());
    const result = await run(args);
    expect(await dbState(server())).toEqual(before);
    return result;
  }

  beforeEach(async () => {
    await call('DELETE', `${WEB}?propagationPolicy=Background`);
    expect((await call('POST', collectionPath(deployment), deployment.manifest)).status).toBe(201);
  });

  it('diff prints the change and stores nothing', async () => {
    const result = await changesNothing(['diff', '-f', manifestFile('web', 5)]);
    expect(result.code).toBe(1); // differences found
    expect(result.stdout).toMatch(/^-  replicas: 2$/m);
    expect(result.stdout).toMatch(/^\+  replicas: 5$/m);
    expect((await call('GET', WEB)).json.spec.replicas).toBe(2);
  });

  it('apply --dry-run=server reports the object configured and stores nothing', async () => {
    const result = await changesNothing(['apply', '--dry-run=server', '-f', manifestFile('web', 5), '-o', 'yaml']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ {2}replicas: 5$/m);
    expect((await call('GET', WEB)).json.spec.replicas).toBe(2);
  });

  it('create --dry-run=server reports the object created and stores nothing', async () => {
    const result = await changesNothing(['create', '--dry-run=server', '-f', manifestFile('fresh', 3)]);
    expect(result).toMatchObject({ code: 0, stdout: 'deployment.extensions/fresh created (server dry run)\n' });
    expect((await call('GET', itemPath(deployment, 'fresh'))).status).toBe(404);
    const taken = await changesNothing(['create', '--dry-run=server', '-f', manifestFile('web', 3)]);
    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toMatch(/AlreadyExists|already exists/);
  });

  it('delete --dry-run=server reports the object deleted and keeps it', async () => {
    const result = await changesNothing(['delete', '--dry-run=server', 'deployment', 'web']);
    expect(result).toMatchObject({ code: 0, stdout: 'deployment.extensions "web" deleted (server dry run)\n' });
    expect((await call('GET', WEB)).json.metadata.deletionTimestamp).toBeUndefined();
  });

  it('scale --dry-run=server reports the object scaled and keeps its replicas', async () => {
    const result = await changesNothing(['scale', '--dry-run=server', 'deployment/web', '--replicas=7']);
    // kubectl 1.20's scale does not say "(server dry run)"; the server was asked for one all the same
    const suffix = client.tag === 'v120' ? '' : ' (server dry run)';
    expect(result).toMatchObject({ code: 0, stdout: `deployment.extensions/web scaled${suffix}\n` });
    expect((await call('GET', WEB)).json.spec.replicas).toBe(2);
  });
});
