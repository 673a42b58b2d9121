import { useTestServer } from './support/api';
import { collectionPath, itemPath, KINDS } from './support/kinds';
import { WatchClient } from './support/watch-client';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// Server-side Table output (the current apiserver's, not 1.7's): the columns each kind's row declares.

// each kind's list is the one object the tests made of it: no controller makes ReplicaSets besides
const { call, server } = useTestServer([], WITHOUT_DEPLOYMENT_CONTROLLER);
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
/** what kubectl sends: a Table in v1 or v1beta1, else plain JSON */
const KUBECTL_ACCEPT = `${TABLE},application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json`;

const HEADERS: Record<string, string[]> = {
  DaemonSet: ['Name', 'Desired', 'Current', 'Ready', 'Up-to-date', 'Available', 'Node Selector', 'Age', 'Containers', 'Images', 'Selector'],
  Deployment: ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector'],
  Ingress: ['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age'],
  NetworkPolicy: ['Name', 'Pod-Selector', 'Age'],
  ReplicaSet: ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers', 'Images', 'Selector'],
  PodSecurityPolicy: ['Name', 'Priv', 'Caps', 'SELinux', 'RunAsUser', 'FsGroup', 'SupGroup', 'ReadOnlyRootFs', 'Volumes'],
  ThirdPartyResource: ['Name', 'Age'],
  Cluster: ['Name', 'Age'],
};

beforeAll(async () => {
  for (const k of KINDS) expect((await call('POST', collectionPath(k), k.manifest)).status).toBe(201);
});

describe.each(KINDS)('$kind', (k) => {
  it('lists as a Table with its columns and a row per object, each with its metadata', async () => {
    const listed = await call('GET', collectionPath(k), undefined, { accept: KUBECTL_ACCEPT });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('content-type')).toBe(TABLE);
    const table = listed.json;
    expect(table).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: expect.any(String) } });
    expect(table.columnDefinitions.map((c: any) => c.name)).toEqual(HEADERS[k.kind]);
    expect(table.columnDefinitions[0]).toMatchObject({ type: 'string', format: 'name', priority: 0 });
    expect(table.rows).toHaveLength(1);
    expect(table.rows[0].cells[0]).toBe(k.manifest.metadata.name);
    expect(table.rows[0].cells).toHaveLength(HEADERS[k.kind].length);
    expect(table.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: k.manifest.metadata.name } });
  });
});

it('fills the cells as kubectl prints them', async () => {
  const { rows } = (await call('GET', collectionPath(KINDS.find((k) => k.kind === 'Deployment')!), undefined, { accept: TABLE })).json;
  const [name, ready, upToDate, available, age, containers, images, selector] = rows[0].cells;
  expect([name, ready, upToDate, available]).toEqual(['web', '0/2', 0, 0]);
  expect(age).toMatch(/^\d+s$/);
  expect([containers, images, selector]).toEqual(['nginx,sidecar', 'nginx:1.13,busybox:1.36', 'app=web']);
});

it('reads only what the rows need for a list, and the whole objects for includeObject=Object', async () => {
  const path = collectionPath(KINDS.find((k) => k.kind === 'Deployment')!);
  const metadataOnly = (await call('GET', path, undefined, { accept: TABLE })).json.rows[0];
  expect(metadataOnly.object.metadata).toMatchObject({ name: 'web', namespace: 'default', labels: { app: 'web' } });
  expect(metadataOnly.cells[5]).toBe('nginx,sidecar');
  const whole = (await call('GET', `${path}?includeObject=Object`, undefined, { accept: TABLE })).json.rows[0];
  expect(whole.object.spec.template.spec.containers[0]).toMatchObject({ name: 'nginx', image: 'nginx:1.13', imagePullPolicy: 'IfNotPresent' });
});

it('answers a GET of one object with a one-row Table, in v1beta1 when asked, with the object or none', async () => {
  const deployment = KINDS.find((k) => k.kind === 'Deployment')!;
  const asked = (includeObject: string) =>
    call('GET', `${itemPath(deployment, 'web')}?includeObject=${includeObject}`, undefined, { accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io' });
  const withObject = (await asked('Object')).json;
  expect(withObject.apiVersion).toBe('meta.k8s.io/v1beta1');
  expect(withObject.rows[0].object).toMatchObject({ kind: 'Deployment', apiVersion: 'extensions/v1beta1', spec: { replicas: 2 } });
  expect((await asked('None')).json.rows[0]).not.toHaveProperty('object');
  const refused = await asked('Everything');
  expect(refused.status).toBe(400);
  expect(refused.json.message).toContain('includeObject');
});

it('passes over a Table it cannot write: protobuf, another group or version, or on a write', async () => {
  const path = collectionPath(KINDS[0]);
  const protobuf = await call('GET', path, undefined, { accept: 'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json' });
  expect(protobuf.json.kind).toBe('DaemonSetList');
  expect((await call('GET', path, undefined, { accept: 'application/json;as=Table;v=v2;g=meta.k8s.io' })).status).toBe(406);
  const manifest = { ...KINDS[0].manifest, metadata: { name: 'written' } };
  const created = await call('POST', path, manifest, { accept: KUBECTL_ACCEPT });
  expect(created.json.kind).toBe('DaemonSet');
});

it('streams a watch as Tables of one row, the column definitions with the first event only', async () => {
  const deployment = KINDS.find((k) => k.kind === 'Deployment')!;
  const watch = await WatchClient.open(server().url, `${collectionPath(deployment)}?watch=1`, { accept: KUBECTL_ACCEPT });
  expect((await call('POST', collectionPath(deployment), { ...deployment.manifest, metadata: { name: 'watched' } })).status).toBe(201);
  const [first, second] = await watch.count(2);
  watch.close();
  expect(first.type).toBe('ADDED');
  expect(first.object).toMatchObject({ kind: 'Table', rows: [{ cells: expect.arrayContaining(['web']) }] });
  expect(first.object.columnDefinitions.map((c: any) => c.name)).toEqual(HEADERS.Deployment);
  expect(second.object).toMatchObject({ kind: 'Table', columnDefinitions: null, rows: [{ cells: expect.arrayContaining(['watched']) }] });
});

it('declares the column types of upstream\'s printers', async () => {
  const deployment = KINDS.find((k) => k.kind === 'Deployment')!;
  const { columnDefinitions } = (await call('GET', collectionPath(deployment), undefined, { accept: TABLE })).json;
  expect(columnDefinitions.slice(0, 4).map((c: any) => [c.name, c.type])).toEqual([
    ['Name', 'string'],
    ['Ready', 'string'],
    ['Up-to-date', 'string'],
    ['Available', 'string'],
  ]);
});

it('sends a bookmark of a Table watch as a Table without rows, at its resourceVersion', async () => {
  const deployment = KINDS.find((k) => k.kind === 'Deployment')!;
  const path = `${collectionPath(deployment)}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`;
  const watch = await WatchClient.open(server().url, path, { accept: KUBECTL_ACCEPT });
  const events = await watch.until((all) => all.some((e) => e.type === 'BOOKMARK'));
  watch.close();
  const bookmark = events.find((e) => e.type === 'BOOKMARK')!;
  expect(bookmark.object).toMatchObject({ kind: 'Table', rows: [], metadata: { resourceVersion: expect.stringMatching(/^\d+$/) } });
});
