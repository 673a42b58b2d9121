import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { useTestServer } from './support/api';
import { collectionPath, itemPath, kindNamed } from './support/kinds';
import { kubectl, KUBECTLS } from './support/kubectl';

const { call, server } = useTestServer();

const RCS = '/api/v1/namespaces/default/replicationcontrollers';
const rcManifest: any = load(readFileSync(join(__dirname, 'fixtures', 'replicationcontroller.yaml'), 'utf8'));
const deployment = kindNamed('Deployment');
const replicaSet = kindNamed('ReplicaSet');

/** What kubectl scales, where the object and its Scale live, and how the object is created. */
const TARGETS = [
  { arg: 'deployment/x', replicas: 5, object: itemPath(deployment, 'x'), create: () => call('POST', collectionPath(deployment), { ...deployment.manifest, metadata: { name: 'x' } }) },
  { arg: 'rs/y', replicas: 2, object: itemPath(replicaSet, 'y'), create: () => call('POST', collectionPath(replicaSet), { ...replicaSet.manifest, metadata: { name: 'y' } }) },
  { arg: 'rc/z', replicas: 3, object: `${RCS}/z`, create: () => call('POST', RCS, rcManifest) },
];

describe.each(KUBECTLS)('kubectl $tag', (client) => {
  describe.each(TARGETS)('scale $arg', (target) => {
    afterEach(() => call('DELETE', `${target.object}?propagationPolicy=Background`));

    it('(a merge PATCH of the Scale), visible on the scale and main paths', async () => {
      const created = await target.create();
      expect(created.status).toBe(201);
      const scaled = await kubectl(client, server().url, ['scale', target.arg, `--replicas=${target.replicas}`]);
      expect(scaled.stderr).toBe('');
      expect(scaled.stdout).toMatch(/ scaled$/m);
      const object = (await call('GET', target.object)).json;
      expect(object.spec.replicas).toBe(target.replicas);
      expect(object.metadata.generation).toBe(created.json.metadata.generation + 1);
      expect((await call('GET', `${target.object}/scale`)).json.spec.replicas).toBe(target.replicas);
    });

    it('with --current-replicas (a GET and a PUT of the Scale), visible on the scale and main paths', async () => {
      const created = await target.create();
      expect(created.status).toBe(201);
      const current = created.json.spec.replicas;
      const scaled = await kubectl(client, server().url, ['scale', target.arg, `--replicas=${target.replicas}`, `--current-replicas=${current}`]);
      expect(scaled.stderr).toBe('');
      expect(scaled.stdout).toMatch(/ scaled$/m);
      expect((await call('GET', target.object)).json.spec.replicas).toBe(target.replicas);
      expect((await call('GET', `${target.object}/scale`)).json.spec.replicas).toBe(target.replicas);
      const stale = await kubectl(client, server().url, ['scale', target.arg, '--replicas=1', `--current-replicas=${current}`]);
      expect(stale.code).not.toBe(0);
      expect((await call('GET', target.object)).json.spec.replicas).toBe(target.replicas);
    });
  });

  it('gets ReplicationControllers by their short name', async () => {
    await call('POST', RCS, rcManifest);
    const listed = await kubectl(client, server().url, ['get', 'rc', '-o', 'name']);
    expect(listed.stdout.trim()).toBe('replicationcontroller/z');
    await call('DELETE', `${RCS}/z?propagationPolicy=Background`);
  });
});
