import { http } from './support/http';
import { collectionPath, itemPath, KindCase, KINDS } from './support/kinds';
import { startTestServer, TestServer } from './support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const JSON_PATCH = 'application/json-patch+json';
const MERGE_PATCH = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';

const kind = (resource: string) => KINDS.find((k) => k.resource === resource) as KindCase;
const DEPLOYMENTS = kind('deployments');
const CLUSTERS = kind('clusters');
const TPRS = kind('thirdpartyresources');

const patch = (k: KindCase, name: string, type: string | undefined, body: unknown) =>
  http(server.url, 'PATCH', itemPath(k, name), {
    // a Buffer, so that fetch adds no Content-Type of its own
    body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
    headers: type ? { 'content-type': type } : {},
  });

let serial = 0;
/** Creates a fresh object of the kind, from its fixture changed by `change`; returns it as stored. */
async function create(k: KindCase, change: (manifest: any) => void = () => undefined): Promise<any> {
  const manifest = structuredClone(k.manifest);
  // a name valid for every kind: ThirdPartyResource names need <kind>.<domain>.<tld>, Cluster names a DNS label
  manifest.metadata.name = k.kind === 'ThirdPartyResource' ? `p${++serial}.example.com` : `p${++serial}`;
  change(manifest);
  const created = await http(server.url, 'POST', collectionPath(k), { body: manifest });
  expect(created.status).toBe(201);
  return created.json;
}

const get = async (k: KindCase, name: string) => (await http(server.url, 'GET', itemPath(k, name))).json;

describe.each(KINDS)('PATCH of a $kind', (k) => {
  it.each([
    [JSON_PATCH, [{ op: 'add', path: '/metadata/labels', value: { patched: 'json' } }], 'json'],
    [MERGE_PATCH, { metadata: { labels: { patched: 'merge' } } }, 'merge'],
    [STRATEGIC, { metadata: { labels: { patched: 'strategic' } } }, 'strategic'],
  ])('applies %s and stores the result', async (type, body, value) => {
    const created = await create(k);
    const name = created.metadata.name;
    const response = await patch(k, name, type, body);
    expect(response.status).toBe(200);
    expect(response.json.kind).toBe(k.kind);
    expect(response.json.metadata.labels.patched).toBe(value);
    expect(response.json.metadata.uid).toBe(created.metadata.uid);
    expect(BigInt(response.json.metadata.resourceVersion)).toBeGreaterThan(BigInt(created.metadata.resourceVersion));
    expect(response.json.metadata.selfLink).toBe(itemPath(k, name));
    expect(await get(k, name)).toEqual(response.json);
  });

  it('answers an empty patch with the stored object, writing nothing', async () => {
    const created = await create(k);
    const name = created.metadata.name;
    for (const [type, body] of [
      [MERGE_PATCH, {}],
      [STRATEGIC, {}],
      [JSON_PATCH, []],
    ]) {
      const response = await patch(k, name, type as string, body);
      expect(response.status).toBe(200);
      expect(response.json).toEqual(created);
    }
    const rows = await server.sql('SELECT count(*)::int AS n FROM change_log WHERE resource = $1 AND name = $2', [k.resource, name]);
    expect(rows[0].n).toBe(1);
  });
});

/** Objects with something in every merge list the cases below touch. */
const richDeployment = (d: any) => {
  d.metadata.annotations = { note: 'kept', other: 'also' };
  d.metadata.finalizers = ['example.com/a', 'example.com/b'];
  d.metadata.ownerReferences = [
    { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner-a', uid: 'uid-a' },
    { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner-b', uid: 'uid-b' },
  ];
  d.spec.template.spec.containers = [
    {
      name: 'nginx',
      image: 'nginx:1.13',
      args: ['x', 'y'],
      ports: [{ containerPort: 80 }, { containerPort: 443 }],
      env: [
        { name: 'A', value: '1' },
        { name: 'B', value: '2' },
      ],
      volumeMounts: [{ name: 'data', mountPath: '/data' }],
    },
    { name: 'sidecar', image: 'busybox:1.36' },
  ];
  d.spec.template.spec.volumes = [
    { name: 'data', emptyDir: {} },
    { name: 'cache', emptyDir: {} },
  ];
};

const podSpec = (spec: unknown) => ({ spec: { template: { spec } } });
/** What the server adds to a container it stores, for an image without a tag (reference §12.1). */
const defaulted = (container: object) => ({
  ...container,
  imagePullPolicy: 'Always',
  resources: {},
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
});
const containers = (d: any) => d.spec.template.spec.containers;
const names = (items: any[]) => items.map((item) => item.name);
const nginx = (d: any) => containers(d).find((c: any) => c.name === 'nginx');

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
    title: 'orders containers by $setElementOrder (the reference example)',
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

describe('JSON patch', () => {
  it('runs all six operations in order', async () => {
    const created = await create(DEPLOYMENTS, richDeployment);
    const response = await patch(DEPLOYMENTS, created.metadata.name, JSON_PATCH, [
      { op: 'test', path: '/spec/replicas', value: 2 },
      { op: 'replace', path: '/spec/replicas', value: 3 },
      { op: 'add', path: '/metadata/labels/tier', value: 'web' },
      { op: 'copy', from: '/metadata/labels/tier', path: '/metadata/annotations/tier' },
      { op: 'move', from: '/metadata/annotations/other', path: '/metadata/annotations/moved' },
      { op: 'remove', path: '/spec/template/spec/containers/1' },
      { op: 'add', path: '/spec/template/spec/containers/-', value: { name: 'last', image: 'l' } },
      { op: 'test', path: '/metadata/annotations/moved', value: 'also' },
    ]);
    expect(response.status).toBe(200);
    const d = response.json;
    expect(d.spec.replicas).toBe(3);
    expect(d.metadata.labels.tier).toBe('web');
    expect(d.metadata.annotations).toEqual({ note: 'kept', tier: 'web', moved: 'also' });
    expect(names(containers(d))).toEqual(['nginx', 'last']);
    expect(d.metadata.generation).toBe(2);
  });

  it('can test the resourceVersion it read', async () => {
    const created = await create(DEPLOYMENTS);
    const ops = (version: string) => [
      { op: 'test', path: '/metadata/resourceVersion', value: version },
      { op: 'replace', path: '/spec/replicas', value: 5 },
    ];
    expect((await patch(DEPLOYMENTS, created.metadata.name, JSON_PATCH, ops(created.metadata.resourceVersion))).status).toBe(200);
    expect((await patch(DEPLOYMENTS, created.metadata.name, JSON_PATCH, ops(created.metadata.resourceVersion))).status).toBe(400);
  });
});

describe('merge patch', () => {
  it('replaces lists whole and removes members set to null', async () => {
    const created = await create(DEPLOYMENTS, richDeployment);
    const response = await patch(DEPLOYMENTS, created.metadata.name, MERGE_PATCH, {
      metadata: { annotations: { other: null } },
      spec: { template: { spec: { containers: [{ name: 'only', image: 'x' }] } } },
    });
    expect(response.status).toBe(200);
    expect(response.json.metadata.annotations).toEqual({ note: 'kept' });
    expect(containers(response.json)).toEqual([defaulted({ name: 'only', image: 'x' })]);
  });
});

describe('patched objects are validated', () => {
  it('keeps the other keys of a merged volume, so a second volume source is refused with 422', async () => {
    const created = await create(DEPLOYMENTS, richDeployment);
    const response = await patch(DEPLOYMENTS, created.metadata.name, STRATEGIC, podSpec({ volumes: [{ name: 'data', hostPath: { path: '/srv' } }] }));
    expect(response.status).toBe(422);
    expect(response.json.details.causes).toContainEqual({
      reason: 'FieldValueForbidden',
      field: 'spec.template.spec.volumes[0].emptyDir',
      message: 'Forbidden: may not specify more than 1 volume type',
    });
    expect((await get(DEPLOYMENTS, created.metadata.name)).metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });
});

describe('PATCH and the update rules', () => {
  it('drops a status change made through the main resource, writing nothing', async () => {
    const created = await create(DEPLOYMENTS);
    const response = await patch(DEPLOYMENTS, created.metadata.name, MERGE_PATCH, { status: { replicas: 5 } });
    expect(response.status).toBe(200);
    expect(response.json.status).toEqual(created.status);
    expect(response.json.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });

  it('takes a resourceVersion in the patch as a precondition', async () => {
    const created = await create(DEPLOYMENTS);
    const name = created.metadata.name;
    const withVersion = (resourceVersion: string, value: string) => ({ metadata: { resourceVersion, labels: { round: value } } });
    const first = await patch(DEPLOYMENTS, name, MERGE_PATCH, withVersion(created.metadata.resourceVersion, 'one'));
    expect(first.status).toBe(200);
    const stale = await patch(DEPLOYMENTS, name, STRATEGIC, withVersion(created.metadata.resourceVersion, 'two'));
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({
      kind: 'Status',
      reason: 'Conflict',
      code: 409,
      message: `Operation cannot be fulfilled on deployments.extensions "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      details: { name, group: 'extensions', kind: 'deployments' },
    });
    const bad = await patch(DEPLOYMENTS, name, MERGE_PATCH, withVersion('abc', 'three'));
    expect(bad.status).toBe(400);
    const got = await get(DEPLOYMENTS, name);
    expect(got.metadata.labels.round).toBe('one');
    expect(got.metadata.resourceVersion).toBe(first.json.metadata.resourceVersion);
  });

  it('retries on the new state when patches race, losing none of them', async () => {
    const created = await create(DEPLOYMENTS);
    const name = created.metadata.name;
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        i % 2 === 0
          ? patch(DEPLOYMENTS, name, MERGE_PATCH, { metadata: { labels: { [`l${i}`]: 'x' } } })
          : patch(DEPLOYMENTS, name, JSON_PATCH, [{ op: 'add', path: `/metadata/labels/l${i}`, value: 'x' }]),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    const labels = (await get(DEPLOYMENTS, name)).metadata.labels;
    expect(Object.keys(labels).filter((key) => key.startsWith('l')).sort()).toEqual(['l0', 'l1', 'l2', 'l3', 'l4', 'l5', 'l6', 'l7']);
  });

  it('refuses an invalid result with 422 and its causes', async () => {
    const created = await create(DEPLOYMENTS);
    const response = await patch(DEPLOYMENTS, created.metadata.name, MERGE_PATCH, { metadata: { labels: { 'bad key!': 'x' } } });
    expect(response.status).toBe(422);
    expect(response.json).toMatchObject({ reason: 'Invalid', details: { kind: 'Deployment', group: 'extensions' } });
    expect(response.json.details.causes[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'metadata.labels' });
  });

  it('answers 404 for a missing object', async () => {
    const response = await patch(DEPLOYMENTS, 'missing', MERGE_PATCH, { metadata: { labels: { a: 'b' } } });
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({ reason: 'NotFound', message: 'deployments.extensions "missing" not found' });
  });

  it('refuses to change the uid with 409', async () => {
    const created = await create(DEPLOYMENTS);
    const response = await patch(DEPLOYMENTS, created.metadata.name, MERGE_PATCH, { metadata: { uid: 'another' } });
    expect(response.status).toBe(409);
    expect(response.json.reason).toBe('Conflict');
  });

  it('fills a removed namespace in from the path', async () => {
    const created = await create(DEPLOYMENTS);
    const response = await patch(DEPLOYMENTS, created.metadata.name, JSON_PATCH, [{ op: 'remove', path: '/metadata/namespace' }]);
    expect(response.status).toBe(200);
    expect(response.json.metadata.namespace).toBe('default');
  });
});

interface ErrorCase {
  title: string;
  type: string | undefined;
  body: unknown;
  code: number;
  message: RegExp;
}

const ERROR_CASES: ErrorCase[] = [
  { title: 'no Content-Type', type: undefined, body: {}, code: 415, message: /application\/json-patch\+json, application\/merge-patch\+json, application\/strategic-merge-patch\+json/ },
  { title: 'a JSON body', type: 'application/json', body: {}, code: 415, message: /unknown format/ },
  { title: 'a YAML body', type: 'application/yaml', body: 'metadata: {}', code: 415, message: /unknown format/ },
  { title: 'a body that is not JSON', type: MERGE_PATCH, body: '{"metadata":', code: 400, message: /not valid JSON/ },
  { title: 'an empty body', type: STRATEGIC, body: '', code: 400, message: /not valid JSON/ },
  { title: 'a JSON patch that is not an array', type: JSON_PATCH, body: { op: 'add' }, code: 400, message: /JSON array/ },
  { title: 'an unknown operation', type: JSON_PATCH, body: [{ op: '_get', path: '/spec' }], code: 400, message: /unknown operation/ },
  { title: 'a path that does not exist', type: JSON_PATCH, body: [{ op: 'replace', path: '/spec/nothing/deeper', value: 1 }], code: 400, message: /operation 0/ },
  { title: 'a bad array index', type: JSON_PATCH, body: [{ op: 'add', path: '/spec/template/spec/containers/9', value: {} }], code: 400, message: /could not be applied/ },
  { title: 'a failing test', type: JSON_PATCH, body: [{ op: 'test', path: '/spec/replicas', value: 99 }], code: 400, message: /Test operation failed/ },
  { title: 'a move into itself', type: JSON_PATCH, body: [{ op: 'move', from: '/spec', path: '/spec/template' }], code: 400, message: /into itself/ },
  { title: 'a result that is not an object', type: MERGE_PATCH, body: [1, 2], code: 400, message: /cannot unmarshal array/ },
  { title: 'a changed name', type: MERGE_PATCH, body: { metadata: { name: 'other' } }, code: 400, message: /does not match the name on the URL/ },
  { title: 'a removed name', type: JSON_PATCH, body: [{ op: 'remove', path: '/metadata/name' }], code: 400, message: /name must be provided/ },
  { title: 'a changed namespace', type: MERGE_PATCH, body: { metadata: { namespace: 'other' } }, code: 400, message: /does not match the namespace/ },
  { title: 'a changed kind', type: MERGE_PATCH, body: { kind: 'ReplicaSet' }, code: 400, message: /ReplicaSet/ },
  { title: 'a changed apiVersion', type: JSON_PATCH, body: [{ op: 'replace', path: '/apiVersion', value: 'apps/v1' }], code: 400, message: /API version/ },
  { title: 'a strategic merge patch that is not an object', type: STRATEGIC, body: [], code: 400, message: /JSON object/ },
  { title: '$patch: merge in an object', type: STRATEGIC, body: { spec: { $patch: 'merge' } }, code: 400, message: /unknown patch type: merge/ },
  { title: 'an unknown $patch', type: STRATEGIC, body: { spec: { $patch: 'squash' } }, code: 400, message: /unknown patch type: squash/ },
  { title: '$patch: merge in a list', type: STRATEGIC, body: podSpec({ containers: [{ $patch: 'merge' }] }), code: 400, message: /merging lists cannot yet be specified/ },
  { title: 'a list item without its merge key', type: STRATEGIC, body: podSpec({ containers: [{ image: 'x' }] }), code: 400, message: /does not contain declared merge key: name/ },
  { title: 'a deletion without its merge key', type: STRATEGIC, body: podSpec({ containers: [{ $patch: 'delete' }] }), code: 400, message: /does not contain declared merge key: name/ },
  {
    title: 'items out of the $setElementOrder order',
    type: STRATEGIC,
    body: podSpec({ '$setElementOrder/containers': [{ name: 'nginx' }, { name: 'sidecar' }], containers: [{ name: 'sidecar' }, { name: 'nginx' }] }),
    code: 400,
    message: /doesn't match \$setElementOrder list/,
  },
  { title: 'a $setElementOrder that is not a list', type: STRATEGIC, body: podSpec({ '$setElementOrder/containers': 'nginx' }), code: 400, message: /setElementOrder/ },
  { title: 'a key missing from $retainKeys', type: STRATEGIC, body: { metadata: { $retainKeys: ['name'], labels: { a: 'b' } } }, code: 400, message: /retainKeys/ },
  { title: 'a malformed $deleteFromPrimitiveList', type: STRATEGIC, body: { metadata: { $deleteFromPrimitiveList: ['x'] } }, code: 400, message: /primitive list/ },
  { title: 'items of different types in a merged list', type: STRATEGIC, body: { metadata: { finalizers: [['x']] } }, code: 400, message: /list element types/ },
  { title: 'a list of lists', type: STRATEGIC, body: { metadata: { ownerReferences: [[1]] } }, code: 400, message: /lists of lists/ },
  // nesting deeper than any body may have: refused before the engines recurse (it overflowed the stack: a 500)
  ...[STRATEGIC, MERGE_PATCH, JSON_PATCH].map((type) => ({
    title: `a ${type} nested 20,000 deep`,
    type,
    body: `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`,
    code: 400,
    message: /exceeded max depth of 1000/,
  })),
];

describe('malformed patches', () => {
  it.each(ERROR_CASES)('$title: $code', async ({ type, body, code, message }) => {
    const created = await create(DEPLOYMENTS, (d) => {
      d.metadata.finalizers = ['example.com/a'];
      d.metadata.ownerReferences = [];
    });
    const name = created.metadata.name;
    const response = await patch(DEPLOYMENTS, name, type, body);
    expect(response.status).toBe(code);
    expect(response.json).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code });
    expect(response.json.message).toMatch(message);
    expect((await get(DEPLOYMENTS, name)).metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });
});
