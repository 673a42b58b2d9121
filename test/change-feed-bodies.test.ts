import { ServerMetrics } from '../src/metrics/server-metrics';
import { Change } from '../src/storage/changes/change';
import { ALL_RESOURCES, ChangeFeed } from '../src/watch/change-feed.service';
import { ChangeHistory } from '../src/storage/changes/change-history';
import { ChangeNotifications } from '../src/storage/changes/change-notifications';
import { DatabaseHistory } from '../src/storage/database/database-history';
import { Pool } from 'pg';

const object = { metadata: { name: 'a', uid: 'u' } };
const bodiless = { resourceVersion: 1n, type: 'ADDED', group: 'extensions', resource: 'deployments', namespace: 'ns', name: 'a', object: null };

const metadataAlone = { ...bodiless, object: { metadata: object.metadata }, metadataOnly: true };

/**
 * A change feed over a history that answers one page, with the change read without its object (or with its
 * metadata alone), when released.
 */
function feedOverOnePage(page: object = bodiless) {
  let release: () => void = () => undefined;
  const pageRead = new Promise<void>((resolve) => (release = resolve));
  const withBodies: string[][] = [];
  const withMetadata: string[][] = [];
  const bodiesRead: bigint[][] = [];
  const history = {
    after: async (after: bigint, _limit: number, whole: string[], metadata: string[]) => {
      withBodies.push(whole);
      withMetadata.push(metadata);
      if (after > 0n) return { epoch: 1, changes: [] };
      await pageRead;
      return { epoch: 1, changes: [{ ...page }] };
    },
    bodies: async (versions: bigint[]) => {
      bodiesRead.push(versions);
      return new Map(versions.map((v) => [v, { object }]));
    },
  } as unknown as ChangeHistory;
  const metrics = { changesRead: { inc: () => undefined } } as unknown as ServerMetrics;
  return { feed: new ChangeFeed(history, new ChangeNotifications('postgresql://unused'), metrics, new DatabaseHistory(new Pool())), release, withBodies, withMetadata, bodiesRead };
}

describe('change feed: objects only for subscribed resources', () => {
  it('reads the objects of a change read without them when its resource gains a subscriber before dispatch', async () => {
    const { feed, release, withBodies } = feedOverOnePage();
    const received: Change[] = [];
    feed.catchUp(); // the page is asked for while nobody subscribes: without objects
    feed.subscribe({ key: 'extensions/deployments', deliver: (change) => received.push(change) });
    release();
    expect(await feed.reaches(1n, 5000)).toBe(true);
    expect(withBodies[0]).toEqual([]);
    expect(received).toEqual([expect.objectContaining({ resourceVersion: 1n, object })]);
  });

  it('reads the metadata alone for subscribers of metadata, and the whole objects once one needs them', async () => {
    const { feed, release, withBodies, withMetadata, bodiesRead } = feedOverOnePage(metadataAlone);
    const collector: Change[] = [];
    const watcher: Change[] = [];
    feed.subscribe({ key: ALL_RESOURCES, metadataOnly: true, deliver: (change) => collector.push(change) });
    feed.catchUp(); // the page is asked for while only the collector subscribes: metadata alone
    feed.subscribe({ key: 'extensions/deployments', deliver: (change) => watcher.push(change) });
    release();
    expect(await feed.reaches(1n, 5000)).toBe(true);
    expect([withBodies[0], withMetadata[0]]).toEqual([[], [ALL_RESOURCES]]);
    expect(bodiesRead).toEqual([[1n]]);
    expect(watcher).toEqual([expect.objectContaining({ object })]);
    expect(watcher[0].metadataOnly).toBeUndefined();
    expect(collector).toEqual(watcher);
  });

  it('reads no objects for changes nobody subscribes to, and still moves its position on', async () => {
    const { feed, release, bodiesRead } = feedOverOnePage();
    const received: Change[] = [];
    feed.subscribe({ key: 'extensions/replicasets', deliver: (change) => received.push(change) });
    release();
    expect(await feed.reaches(1n, 5000)).toBe(true);
    expect(bodiesRead).toEqual([]);
    expect(received).toEqual([]);
  });
});
