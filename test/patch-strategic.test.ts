import { KindCase } from './support/kinds';
import { CLUSTERS, containers, defaulted, DEPLOYMENTS, names, nginx, podSpec, richDeployment, STRATEGIC, TPRS, usePatchServer } from './support/patching';

// Strategic merge patch over HTTP, kind by kind: merge keys, directives and list orders as the 1.7 apiserver applies them.

const { patch, create, get } = usePatchServer();

interface StrategicCase {
  title: string;
  kind: KindCase;
  patch: unknown;
  /** the part of the patched object the case is about, and what it must be */
  part: (object: any) => unknown;
  expected: unknown;
}

const STRATEGIC_CASES: StrategicCase[] = [
  {
    title: 'merges containers by name, keeping what the patch does not name',
    kind: DEPLOYMENTS,
    patch: podSpec({ containers: [{ name: 'nginx', image: 'nginx:1.15' }] }),
    part: (d) => containers(d).map((c: any) => [c.name, c.image, c.ports?.length]),
    expected: [
      ['nginx', 'nginx:1.15', 2],
      ['sidecar', 'busybox:1.36', undefined],
    ],
  },
  {
    title: 'puts a new container ahead of the current ones when no order is given',
    kind: DEPLOYMENTS,
    patch: podSpec({ containers: [{ name: 'logger', image: 'fluentd' }] }),
    part: (d) => names(containers(d)),
    expected: ['logger', 'nginx', 'sidecar'],
  },
  {
    title: 'adds a new container without the directives and nulls inside it',
    kind: DEPLOYMENTS,
    patch: podSpec({
      containers: [{ name: 'new', image: 'n', args: null, '$setElementOrder/env': [{ name: 'X' }], env: [{ name: 'X', value: 'x' }] }],
    }),
    part: (d) => containers(d)[0],
    expected: defaulted({ name: 'new', image: 'n', env: [{ name: 'X', value: 'x' }] }),
  },
  {
    title: 'removes a container with $patch: delete',
    kind: DEPLOYMENTS,
    patch: podSpec({ containers: [{ name: 'sidecar', $patch: 'delete' }] }),
    part: (d) => names(containers(d)),
    expected: ['nginx'],
  },
  {
    title: 'replaces the container list with $patch: replace',
    kind: DEPLOYMENTS,
    patch: podSpec({ containers: [{ $patch: 'replace' }, { name: 'only', image: 'solo' }] }),
    part: containers,
    expected: [defaulted({ name: 'only', image: 'solo' })],
  },
  {
    title: 'orders containers by $setElementOrder, deleting one and adding one',
    kind: DEPLOYMENTS,
    patch: podSpec({
      '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'c' }],
      containers: [
        { name: 'nginx', $patch: 'delete' },
        { name: 'c', image: 'z' },
      ],
    }),
    part: (d) => containers(d).map((c: any) => [c.name, c.image]),
    expected: [
      ['sidecar', 'busybox:1.36'],
      ['c', 'z'],
    ],
  },
  {
    title: 'reorders without changing items when $setElementOrder comes alone',
    kind: DEPLOYMENTS,
    patch: podSpec({ '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'nginx' }] }),
    part: (d) => names(containers(d)),
    expected: ['sidecar', 'nginx'],
  },
  {
    title: 'keeps a server-only container ahead of one added in place of a deleted one (1.7 order)',
    kind: DEPLOYMENTS,
    patch: podSpec({
      '$setElementOrder/containers': [{ name: 'logger' }],
      containers: [
        { name: 'logger', image: 'fluentd' },
        { name: 'nginx', $patch: 'delete' },
      ],
    }),
    part: (d) => names(containers(d)),
    expected: ['sidecar', 'logger'],
  },
  {
    title: 'merges ports by containerPort',
    kind: DEPLOYMENTS,
    patch: podSpec({ containers: [{ name: 'nginx', ports: [{ containerPort: 443, name: 'https' }, { containerPort: 8080 }] }] }),
    part: (d) => nginx(d).ports,
    expected: [
      { containerPort: 80, protocol: 'TCP' },
      { containerPort: 443, name: 'https', protocol: 'TCP' },
      { containerPort: 8080, protocol: 'TCP' },
    ],
  },
  {
    title: 'merges env by name, and null removes a value',
    kind: DEPLOYMENTS,
    patch: podSpec({ containers: [{ name: 'nginx', env: [{ name: 'B', value: null }, { name: 'C', value: '3' }] }] }),
    part: (d) => nginx(d).env,
    expected: [{ name: 'A', value: '1' }, { name: 'B' }, { name: 'C', value: '3' }],
  },
  {
    title: 'merges volumeMounts by mountPath',
    kind: DEPLOYMENTS,
    patch: podSpec({ containers: [{ name: 'nginx', volumeMounts: [{ mountPath: '/data', readOnly: true }] }] }),
    part: (d) => nginx(d).volumeMounts,
    expected: [{ name: 'data', mountPath: '/data', readOnly: true }],
  },
  {
    title: 'merges volumes by name, and $retainKeys drops the keys it does not list',
    kind: DEPLOYMENTS,
    patch: podSpec({ volumes: [{ name: 'data', hostPath: { path: '/srv' }, $retainKeys: ['name', 'hostPath'] }] }),
    part: (d) => d.spec.template.spec.volumes,
    expected: [
      { name: 'data', hostPath: { path: '/srv' } },
      { name: 'cache', emptyDir: {} },
    ],
  },
  {
    title: 'merges a volume without $retainKeys, keeping its other keys',
    kind: DEPLOYMENTS,
    patch: podSpec({ volumes: [{ name: 'data', emptyDir: { medium: 'Memory' } }] }),
    part: (d) => d.spec.template.spec.volumes,
    expected: [
      { name: 'data', emptyDir: { medium: 'Memory' } },
      { name: 'cache', emptyDir: {} },
    ],
  },
  {
    title: 'replaces a list without a merge strategy (args)',
    kind: DEPLOYMENTS,
    patch: podSpec({ containers: [{ name: 'nginx', args: ['z'] }] }),
    part: (d) => nginx(d).args,
    expected: ['z'],
  },
  {
    title: 'removes a field set to null',
    kind: DEPLOYMENTS,
    patch: podSpec({ containers: [{ name: 'nginx', args: null }] }),
    part: (d) => Object.keys(nginx(d)).includes('args'),
    expected: false,
  },
  {
    title: 'merges finalizers as a set, new values first',
    kind: DEPLOYMENTS,
    patch: { metadata: { finalizers: ['example.com/c', 'example.com/a'] } },
    part: (d) => d.metadata.finalizers,
    expected: ['example.com/c', 'example.com/a', 'example.com/b'],
  },
  {
    title: 'removes finalizers with $deleteFromPrimitiveList',
    kind: DEPLOYMENTS,
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['example.com/a'] } },
    part: (d) => d.metadata.finalizers,
    expected: ['example.com/b'],
  },
  {
    title: 'orders finalizers by $setElementOrder',
    kind: DEPLOYMENTS,
    patch: { metadata: { '$setElementOrder/finalizers': ['example.com/b', 'example.com/a'] } },
    part: (d) => d.metadata.finalizers,
    expected: ['example.com/b', 'example.com/a'],
  },
  {
    title: 'merges ownerReferences by uid',
    kind: DEPLOYMENTS,
    patch: { metadata: { ownerReferences: [{ uid: 'uid-b', name: 'owner-b2' }] } },
    part: (d) => d.metadata.ownerReferences.map((r: any) => [r.uid, r.name, r.kind]),
    expected: [
      ['uid-a', 'owner-a', 'ConfigMap'],
      ['uid-b', 'owner-b2', 'ConfigMap'],
    ],
  },
  {
    title: 'removes an ownerReference by uid',
    kind: DEPLOYMENTS,
    patch: { metadata: { ownerReferences: [{ uid: 'uid-a', $patch: 'delete' }] } },
    part: (d) => d.metadata.ownerReferences.map((r: any) => r.uid),
    expected: ['uid-b'],
  },
  {
    title: 'replaces an object with $patch: replace',
    kind: DEPLOYMENTS,
    patch: podSpec({ $patch: 'replace', containers: [{ name: 'solo', image: 'x' }] }),
    part: (d) => d.spec.template.spec,
    expected: {
      containers: [defaulted({ name: 'solo', image: 'x' })],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
    },
  },
  {
    title: 'empties an object with $patch: delete',
    kind: DEPLOYMENTS,
    patch: { metadata: { annotations: { $patch: 'delete' } } },
    part: (d) => d.metadata.annotations ?? {},
    expected: {},
  },
  {
    title: 'applies $retainKeys to any object',
    kind: DEPLOYMENTS,
    patch: { metadata: { annotations: { $retainKeys: ['note'] } } },
    part: (d) => d.metadata.annotations,
    expected: { note: 'kept' },
  },
  {
    title: 'merges Cluster serverAddressByClientCIDRs by clientCIDR',
    kind: CLUSTERS,
    patch: { spec: { serverAddressByClientCIDRs: [{ clientCIDR: '10.0.0.0/8', serverAddress: 'https://internal' }] } },
    part: (c) => c.spec.serverAddressByClientCIDRs,
    expected: [
      { clientCIDR: '10.0.0.0/8', serverAddress: 'https://internal' },
      { clientCIDR: '0.0.0.0/0', serverAddress: 'https://10.0.0.1' },
    ],
  },
  {
    title: 'updates a Cluster server address in place',
    kind: CLUSTERS,
    patch: { spec: { serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: 'https://10.0.0.9' }] } },
    part: (c) => c.spec.serverAddressByClientCIDRs,
    expected: [{ clientCIDR: '0.0.0.0/0', serverAddress: 'https://10.0.0.9' }],
  },
  {
    title: 'replaces ThirdPartyResource versions (a list without strategy)',
    kind: TPRS,
    patch: { versions: [{ name: 'v2' }] },
    part: (t) => t.versions,
    expected: [{ name: 'v2' }],
  },
];

describe('strategic merge patch', () => {
  it.each(STRATEGIC_CASES)('$kind.kind: $title', async ({ kind: k, patch: body, part, expected }) => {
    const created = await create(k, k === DEPLOYMENTS ? richDeployment : undefined);
    const response = await patch(k, created.metadata.name, STRATEGIC, body);
    expect(response.status).toBe(200);
    expect(part(response.json)).toEqual(expected);
    expect(part(await get(k, created.metadata.name))).toEqual(expected);
  });
});
