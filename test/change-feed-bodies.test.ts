import { ServerMetrics } from '../src/metrics/server-metrics';
import { Change } from '../src/watch/change';
import { ChangeFeed } from '../src/watch/change-feed.service';
import { ChangeHistory } from '../src/watch/change-history';

const object = { metadata: { name: 'a', uid: 'u' } };
const bodiless = { resourceVersion: 1n, type: 'ADDED', group: 'extensions', resource: 'deployments', namespace: 'ns', name: 'a', object: null };

/** A change feed over a history that answers one page, with the change read without its object, when released. */
function feedOverOnePage() {
  let release: () => void = () => undefined;
  const pageRead = new Promise<void>((resolve) => (release = resolve));
  const withBodies: string[][] = [];
  const bodiesRead: bigint[][] = [];
  const history = {
    after: async (after: bigint, _limit: number, keys: string[]) => {
      withBodies.push(keys);
      if (after > 0n) return [];
      await pageRead;
      return [{ ...bodiless }];
    },
    bodies: async (versions: bigint[]) => {
      bodiesRead.push(versions);
      return new Map(versions.map((v) => [v, { object }]));
    },
  } as unknown as ChangeHistory;
  const metrics = { changesRead: { inc: () => undefined } } as unknown as ServerMetrics;
  return { feed: new ChangeFeed(history, 'postgresql://unused', metrics), release, withBodies, bodiesRead };
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
