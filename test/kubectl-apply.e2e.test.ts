import { load } from 'js-yaml';
import { useTestServer } from './support/api';
import { dbState } from './support/db-state';
import { itemPath, kindNamed } from './support/kinds';
import { manifestFiles } from './support/manifest-files';
import { kubectl, KUBECTLS } from './support/kubectl';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// what the tests' own requests wrote is compared with the whole database: no controller writes besides
const { call, server } = useTestServer([], WITHOUT_DEPLOYMENT_CONTROLLER);
const deployment = kindNamed('Deployment');

const manifestFile = manifestFiles(deployment, 'apply');

const managersOf = (object: any) => (object.metadata.managedFields ?? []).map((e: any) => `${e.manager}/${e.operation}`).sort();

describe.each(KUBECTLS)('kubectl $tag apply --server-side', (client) => {
  const run = (args: string[]) => kubectl(client, server().url, args);
  const name = `ssa-${client.tag}`;
  const path = itemPath(deployment, name);

  beforeEach(async () => {
    await call('DELETE', `${path}?propagationPolicy=Background`);
  });

  it('creates, then updates the object as the kubectl manager', async () => {
    const created = await run(['apply', '--server-side', '-f', manifestFile(name, 2)]);
    expect(created).toMatchObject({ code: 0, stdout: `deployment.extensions/${name} serverside-applied\n` });
    const object = (await call('GET', path)).json;
    expect(object.spec.replicas).toBe(2);
    expect(managersOf(object)).toEqual(['kubectl/Apply']);
    const updated = await run(['apply', '--server-side', '-f', manifestFile(name, 3)]);
    expect(updated.code).toBe(0);
    expect((await call('GET', path)).json.spec.replicas).toBe(3);
  });

  it('a second manager conflicts, and takes the field with --force-conflicts', async () => {
    expect((await run(['apply', '--server-side', '-f', manifestFile(name, 2)])).code).toBe(0);
    const conflict = await run(['apply', '--server-side', '--field-manager=other', '-f', manifestFile(name, 4)]);
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas');
    expect((await call('GET', path)).json.spec.replicas).toBe(2);
    const forced = await run(['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', manifestFile(name, 4)]);
    expect(forced.code).toBe(0);
    const object = (await call('GET', path)).json;
    expect(object.spec.replicas).toBe(4);
    expect(managersOf(object)).toEqual(['kubectl/Apply', 'other/Apply']);
  });

  it('--dry-run=server answers the applied object and stores nothing', async () => {
    expect((await run(['apply', '--server-side', '-f', manifestFile(name, 2)])).code).toBe(0);
    const before = await dbState(server());
    const result = await run(['apply', '--server-side', '--dry-run=server', '-f', manifestFile(name, 6), '-o', 'yaml']);
    expect(result.code).toBe(0);
    expect((load(result.stdout) as any).spec.replicas).toBe(6);
    expect(await dbState(server())).toEqual(before);
  });

  it('takes over from client-side apply: the last-applied fields move to kubectl without a conflict', async () => {
    expect((await run(['apply', '-f', manifestFile(name, 2)])).code).toBe(0);
    const before = (await call('GET', path)).json;
    expect(managersOf(before)).toEqual(['kubectl-client-side-apply/Update']);
    const result = await run(['apply', '--server-side', '-f', manifestFile(name, 5)]);
    expect(result).toMatchObject({ code: 0, stdout: `deployment.extensions/${name} serverside-applied\n`, stderr: '' });
    const after = (await call('GET', path)).json;
    expect(after.spec.replicas).toBe(5);
    // current kubectl then applies the annotation alone as kubectl-last-applied, so that it is not left unowned, and
    // moves client-side apply's entry into its own (a JSON patch of managedFields); 1.20 does neither
    expect(managersOf(after)).toEqual(
      client.tag === 'v120' ? ['kubectl-client-side-apply/Update', 'kubectl/Apply'] : ['kubectl-last-applied/Apply', 'kubectl/Apply'],
    );
    expect(JSON.parse(after.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).spec.replicas).toBe(5);
    // a client-side apply afterwards still works
    expect((await run(['apply', '-f', manifestFile(name, 1)])).code).toBe(0);
    expect((await call('GET', path)).json.spec.replicas).toBe(1);
  });

  it('get -o yaml shows the entries (with --show-managed-fields where kubectl hides them)', async () => {
    expect((await run(['apply', '--server-side', '-f', manifestFile(name, 2)])).code).toBe(0);
    if (client.tag === 'v120') {
      const shown = await run(['get', 'deployment', name, '-o', 'yaml']);
      expect((load(shown.stdout) as any).metadata.managedFields[0]).toMatchObject({ manager: 'kubectl', operation: 'Apply' });
      return;
    }
    const hidden = await run(['get', 'deployment', name, '-o', 'yaml']);
    expect((load(hidden.stdout) as any).metadata.managedFields).toBeUndefined();
    const shown = await run(['get', 'deployment', name, '-o', 'yaml', '--show-managed-fields']);
    expect(shown.code).toBe(0);
    const entry = (load(shown.stdout) as any).metadata.managedFields[0];
    expect(entry).toMatchObject({ manager: 'kubectl', operation: 'Apply', apiVersion: 'extensions/v1beta1', fieldsType: 'FieldsV1' });
    expect(entry.fieldsV1['f:spec']['f:replicas']).toEqual({});
  });
});
