import { useTestServer } from './support/api';
import { collectionPath, KINDS } from './support/kinds';
import { kubectl, KUBECTLS, startKubectl } from './support/kubectl';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// `kubectl get` prints the columns the server's Tables declare, as against a current cluster.

// the tests' own objects and versions are compared exactly: no deployment controller writes besides
const { call, server } = useTestServer([], WITHOUT_DEPLOYMENT_CONTROLLER);

const HEADERS: Record<string, string[]> = {
  DaemonSet: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE'],
  Deployment: ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
  Ingress: ['NAME', 'CLASS', 'HOSTS', 'ADDRESS', 'PORTS', 'AGE'],
  NetworkPolicy: ['NAME', 'POD-SELECTOR', 'AGE'],
  ReplicaSet: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'],
  PodSecurityPolicy: ['NAME', 'PRIV', 'CAPS', 'SELINUX', 'RUNASUSER', 'FSGROUP', 'SUPGROUP', 'READONLYROOTFS', 'VOLUMES'],
  ThirdPartyResource: ['NAME', 'AGE'],
  Cluster: ['NAME', 'AGE'],
};

/** The cells of a printed line: kubectl separates columns by at least two spaces (and an empty cell is spaces). */
const cells = (line: string) => line.trim().split(/\s{2,}/);

beforeAll(async () => {
  for (const k of KINDS) expect((await call('POST', collectionPath(k), k.manifest)).status).toBe(201);
});

describe.each(KUBECTLS)('kubectl $tag', (client) => {
  const run = (args: string[]) => kubectl(client, server().url, args);

  it.each(KINDS)('gets $kind with its columns', async (k) => {
    const got = await run(['get', `${k.resource}.${k.group}`, ...(k.namespaced ? ['-n', 'default'] : [])]);
    expect(got.stderr).toBe('');
    const [header, row] = got.stdout.trim().split('\n');
    expect(cells(header)).toEqual(HEADERS[k.kind]);
    expect(cells(row)[0]).toBe(k.manifest.metadata.name);
  });

  it('adds the template columns with -o wide, and labels with -L and --show-labels', async () => {
    const wide = await run(['get', 'deployments', '-o', 'wide']);
    const [header, row] = wide.stdout.trim().split('\n');
    expect(cells(header)).toEqual([...HEADERS.Deployment, 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    expect(cells(row)).toEqual(['web', '0/2', '0', '0', expect.stringMatching(/^\d+s$/), 'nginx,sidecar', 'nginx:1.13,busybox:1.36', 'app=web']);
    const labelled = await run(['get', 'deployments', '-L', 'app', '--show-labels', '--sort-by=.metadata.name']);
    expect(cells(labelled.stdout.trim().split('\n')[0])).toEqual([...HEADERS.Deployment, 'APP', 'LABELS']);
  });

  it('watches with the same columns, which only the first event carries', async () => {
    const replicaSet = KINDS.find((k) => k.kind === 'ReplicaSet')!;
    const watching = startKubectl(client, server().url, ['get', 'replicasets', '-w']);
    try {
      const [header, row] = await watching.waitForLines(2);
      expect(cells(header)).toEqual(HEADERS.ReplicaSet);
      expect(cells(row)[0]).toBe('web-1');
      const name = `watched-${client.tag}`;
      expect((await call('POST', collectionPath(replicaSet), { ...replicaSet.manifest, metadata: { name } })).status).toBe(201);
      const lines = await watching.waitForLines(3);
      expect(cells(lines[2])).toEqual([name, '1', '0', '0', expect.stringMatching(/^\d+s$/)]);
    } finally {
      watching.stop();
      await call('DELETE', `${collectionPath(replicaSet)}/watched-${client.tag}`);
    }
  });
});
