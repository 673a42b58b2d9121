import { ObjectStore } from '../src/storage/objects/object-store';
import { GroupRead } from '../src/storage/objects/group-read';
import { useTestServer } from './support/api';
import { collectionPath, itemPath, kindNamed } from './support/kinds';
import { sample, scrape } from './support/metrics';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// Group reads: reads of single objects asked for while the store's read statements are in flight go together in one
// statement, each with its own answer. Reads asked for in one go fill the two lanes with one read each; the rest wait
// and go as one batch.

const DEPLOYMENT = kindNamed('Deployment');
const NS = 'read-batches';
// the tests' own objects and versions are compared exactly: no deployment controller writes besides
const { call, server } = useTestServer([NS, `${NS}-other`], WITHOUT_DEPLOYMENT_CONTROLLER);

const deployment = (name: string, namespace = NS) => ({
  ...DEPLOYMENT.manifest,
  metadata: { ...DEPLOYMENT.manifest.metadata, name, namespace },
});
const key = (name: string, namespace = NS) => ({ group: 'extensions', resource: 'deployments', namespace, name });
const readBatches = async (size: number) => sample(await scrape(server().url), 'pgkube_storage_read_batch_size_bucket', { le: String(size) })!;

beforeAll(async () => {
  for (const [name, namespace] of [['a', NS], ['b', NS], ['a', `${NS}-other`]]) {
    expect((await call('POST', collectionPath(DEPLOYMENT, namespace), deployment(name, namespace))).status).toBe(201);
  }
});

it('gives each read of a batch its own answer: found, missing, the same key twice, the same name elsewhere', async () => {
  const store = server().app.get(ObjectStore);
  const names: [string, string?][] = [['a'], ['b'], ['b'], ['missing'], ['a', `${NS}-other`], ['a'], ['b'], ['gone']];
  const alone = await store.get(key('a'), 'output');
  const batchedBefore = (await readBatches(8)) - (await readBatches(4));

  const together = await Promise.all(names.map(([name, namespace]) => store.get(key(name, namespace), 'output')));
  const objects = await Promise.all(names.map(([name, namespace]) => store.get(key(name, namespace))));

  // two went alone, one in each lane; the other six together, once per form
  expect((await readBatches(8)) - (await readBatches(4)) - batchedBefore).toBe(2);
  expect(together[0]).toEqual(alone);
  expect(together.map((item) => item && JSON.parse(item.metadata).name)).toEqual(['a', 'b', 'b', undefined, 'a', 'a', 'b', undefined]);
  expect(together.map((item) => item && JSON.parse(item.metadata).namespace)).toEqual([NS, NS, NS, undefined, `${NS}-other`, NS, NS, undefined]);
  expect(objects.map((object) => object?.metadata.name)).toEqual(['a', 'b', 'b', undefined, 'a', 'a', 'b', undefined]);
  expect(objects[4]?.metadata.namespace).toBe(`${NS}-other`);
  for (const [i, object] of objects.entries()) expect(object?.metadata.resourceVersion).toBe(together[i]?.resourceVersion);
});

it('reads without its texts a row whose resourceVersion the reader holds, alone and in a batch', async () => {
  const reads = server().app.get(GroupRead);
  const a = (await reads.get<any>('output', key('a')))!;
  const asked: [string, string | undefined, string][] = [
    ['a', NS, a.resource_version],
    ['a', `${NS}-other`, a.resource_version],
    ['a', NS, '1'],
  ];
  // the first two go alone, one in each lane, the other four together
  const rows = await Promise.all([...asked, ...asked].map(([name, namespace, known]) => reads.get<any>('output', key(name, namespace), known)));
  for (const row of [rows[0], rows[3]]) expect(row).toMatchObject({ resource_version: a.resource_version, metadata: null, managed_fields: null, rest: null });
  for (const row of [rows[1], rows[4]]) expect(JSON.parse(row.metadata).namespace).toBe(`${NS}-other`);
  for (const row of [rows[2], rows[5]]) expect(row).toMatchObject(a);
});

it('answers each read of a batch as current as a statement of its own: a write done before the read is seen', async () => {
  const store = server().app.get(ObjectStore);
  const current = (await call('GET', itemPath(DEPLOYMENT, 'b', NS))).json;
  const replaced = (await call('PUT', itemPath(DEPLOYMENT, 'b', NS), { ...current, metadata: { ...current.metadata, labels: { round: '2' } } })).json;
  const reads = await Promise.all(Array.from({ length: 10 }, () => store.get(key('b'))));
  for (const object of reads) expect(object).toMatchObject({ metadata: { resourceVersion: replaced.metadata.resourceVersion, labels: { round: '2' } } });
});
