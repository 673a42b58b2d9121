import { ServerMetrics } from '../src/metrics/server-metrics';
import { ObjectStore } from '../src/storage/objects/object-store';
import { ChangeFeed } from '../src/watch/change-feed.service';
import { ChangeNotifications } from '../src/storage/changes/change-notifications';
import { DatabaseHistory } from '../src/storage/database/database-history';
import { BodilessChange, ChangeHistory } from '../src/storage/changes/change-history';
import { InformedResource, SharedInformer } from '../src/watch/informer';
import { InformerFactory } from '../src/watch/informer-factory';
import { useTestServer } from './support/api';
import { collectionPath, itemPath, kindNamed } from './support/kinds';
import { until } from './support/until';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// The server's own informer (the one the served definitions and the RBAC index use): it lists, then tells each change
// the change feed delivers, those made by SQL on the objects table too; started again after a stop it replays the
// history it missed, and it lists again when that history was compacted away or the feed could not read a change.

const DEPLOYMENT = kindNamed('Deployment');
const NAMESPACE = 'informed';
// the tests' own objects, versions and events are compared exactly: no deployment controller writes besides
const { call, server } = useTestServer([NAMESPACE, 'other'], WITHOUT_DEPLOYMENT_CONTROLLER);
const RESOURCE: InformedResource = { group: DEPLOYMENT.group, resource: DEPLOYMENT.resource, namespace: NAMESPACE };

const create = async (name: string, namespace = NAMESPACE) =>
  expect((await call('POST', collectionPath(DEPLOYMENT, namespace), { ...DEPLOYMENT.manifest, metadata: { name } })).status).toBe(201);
const scale = async (name: string, replicas: number) =>
  expect(
    (await call('PATCH', itemPath(DEPLOYMENT, name, NAMESPACE), { spec: { replicas } }, { 'content-type': 'application/merge-patch+json' })).status,
  ).toBe(200);
const remove = async (name: string) =>
  expect((await call('DELETE', `${itemPath(DEPLOYMENT, name, NAMESPACE)}?propagationPolicy=Background`)).status).toBe(200);
/** Writes made with SQL past the API; the update answers the resourceVersion the trigger gave it. */
const sqlScale = async (name: string, replicas: number) =>
  BigInt(
    (
      await server().sql<{ resource_version: string }>(
        `UPDATE objects SET body = jsonb_set(body, '{spec,replicas}', $3::jsonb) WHERE resource = 'deployments' AND namespace = $1 AND name = $2
         RETURNING resource_version::text`,
        [NAMESPACE, name, JSON.stringify(replicas)],
      )
    )[0].resource_version,
  );
const sqlDelete = (name: string) => server().sql(`DELETE FROM objects WHERE resource = 'deployments' AND namespace = $1 AND name = $2`, [NAMESPACE, name]);

/** The events an informer tells, as `added a`, `added a (listed)`, `updated a 3` (its replicas) or `deleted a`. */
function record(informer: SharedInformer): string[] {
  const events: string[] = [];
  informer.addEventHandler({
    added: (object, initialList) => events.push(`added ${object.metadata.name}${initialList ? ' (listed)' : ''}`),
    updated: (object) => events.push(`updated ${object.metadata.name} ${(object.spec as { replicas: number }).replicas}`),
    deleted: (object) => events.push(`deleted ${object.metadata.name}`),
  });
  return events;
}

/** The lists the store read of the informed resource (other parts of the server list other things). */
const listsOf = (spy: jest.SpyInstance) => spy.mock.calls.filter(([key, query]) => key.resource === DEPLOYMENT.resource && query?.namespace === NAMESPACE).length;

/** Waits until the server's change feed has delivered every committed change. */
async function feedCaughtUp(): Promise<void> {
  const newest = await server().app.get(ChangeHistory).newest();
  expect(await server().app.get(ChangeFeed).reaches(newest, 5000)).toBe(true);
}

const cachedNames = (informer: SharedInformer) => [...informer.list()].map((o) => o.metadata.name).sort();

describe('the shared informer', () => {
  let informer: SharedInformer;
  let events: string[];
  let lists: jest.SpyInstance;

  beforeAll(async () => {
    await create('a');
    await create('b');
    await create('elsewhere', 'other');
    lists = jest.spyOn(server().app.get(ObjectStore), 'list');
    informer = server().app.get(InformerFactory).informerFor(RESOURCE);
    events = record(informer);
  });

  it('lists, then tells each change of its namespace: made through the API or by SQL', async () => {
    expect(informer.hasSynced).toBe(false);
    await informer.start();
    expect(informer.hasSynced).toBe(true);
    expect(events.splice(0)).toEqual(['added a (listed)', 'added b (listed)']);
    expect(informer.get(`${NAMESPACE}/a`)?.metadata.resourceVersion).toMatch(/^\d+$/);

    await create('c');
    await create('ignored', 'other');
    await scale('a', 3);
    const updatedAt = await sqlScale('b', 7);
    await remove('c');
    await sqlDelete('a');
    await until(() => events.length >= 5);
    expect(events.splice(0)).toEqual(['added c', 'updated a 3', 'updated b 7', 'deleted c', 'deleted a']);
    expect(cachedNames(informer)).toEqual(['b']);
    expect(informer.get(`${NAMESPACE}/b`)?.metadata.resourceVersion).toBe(updatedAt.toString());
    expect(listsOf(lists)).toBe(1);
  });

  it('started again after a stop, replays the changes it missed from the change log', async () => {
    informer.stop();
    await create('d');
    const scaledAt = await sqlScale('b', 8);
    await feedCaughtUp(); // so that the changes are history when it starts, not changes the feed delivers after
    await informer.start();
    expect(events.splice(0)).toEqual(['added d', 'updated b 8']);
    expect(informer.resourceVersion).toBe(scaledAt);
    expect(listsOf(lists)).toBe(1);
  });

  it('lists again, and tells the differences, when the change log was compacted beyond its resourceVersion', async () => {
    informer.stop();
    await create('e');
    await scale('b', 9);
    await sqlDelete('d');
    await server().sql('UPDATE change_log_compaction SET compacted_through = (SELECT max(resource_version) FROM change_log)');
    await feedCaughtUp();
    await informer.start();
    expect(events.splice(0)).toEqual(['deleted d', 'updated b 9', 'added e']);
    expect(cachedNames(informer)).toEqual(['b', 'e']);
    expect(listsOf(lists)).toBe(2);

    await remove('e');
    await until(() => events.length >= 1);
    expect(events.splice(0)).toEqual(['deleted e']);
  });

  it('lists again when the change feed could not read one of its changes (compacted away before the read)', async () => {
    // a feed of its own, whose history lost the objects of one change, as when compaction came between its reads
    const history = server().app.get(ChangeHistory);
    let lost: bigint | undefined;
    const lossy = Object.create(history) as ChangeHistory;
    lossy.after = async (...args) => {
      const { epoch, changes } = await history.after(...args);
      return { epoch, changes: changes.map((change) => (change.resourceVersion === lost ? ({ ...change, object: null } as BodilessChange) : change)) };
    };
    lossy.bodies = async (versions) => {
      const bodies = await history.bodies(versions);
      if (lost !== undefined) bodies.delete(lost);
      return bodies;
    };
    const feed = new ChangeFeed(lossy, new ChangeNotifications(server().databaseUrl), server().app.get(ServerMetrics), server().app.get(DatabaseHistory));
    expect(await feed.reaches(await history.newest(), 5000)).toBe(true);
    const own = new SharedInformer(RESOURCE, feed, history, server().app.get(ObjectStore));
    const told = record(own);
    try {
      await own.start();
      expect(told.splice(0)).toEqual(['added b (listed)']);
      lists.mockClear();
      lost = await sqlScale('b', 10);
      expect(await feed.reaches(lost, 5000)).toBe(true);
      await until(() => told.length >= 1);
      expect(told).toEqual(['updated b 10']);
      expect(listsOf(lists)).toBe(1);
    } finally {
      own.stop();
      await feed.onApplicationShutdown();
    }
  });
});
