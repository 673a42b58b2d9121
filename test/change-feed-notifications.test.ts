import { Client } from 'pg';
import { ServerMetrics } from '../src/metrics/server-metrics';
import { Change } from '../src/storage/changes/change';
import { ALL_RESOURCES, ChangeFeed, FeedSubscriber, RELAXED_READ_DELAY_MS } from '../src/watch/change-feed.service';
import { ChangeHistory } from '../src/storage/changes/change-history';
import { ChangeNotifications } from '../src/storage/changes/change-notifications';
import { DatabaseHistory } from '../src/storage/database/database-history';
import { useTestServer } from './support/api';
import { until } from './support/until';

// What a committed change notifies (its resource), and how a change feed answers a notification: it reads the change
// log at once for a resource with a prompt subscriber, and lets changes only relaxed subscribers receive (the garbage
// collector's) gather for a moment, so that one read serves many writes.

const { server } = useTestServer();

/** ConfigMap-like rows written with SQL, each statement its own transaction. */
async function insertConfigMaps(...names: string[]): Promise<void> {
  for (const name of names) {
    await server().sql(`INSERT INTO objects (api_group, resource, body) VALUES ('', 'configmaps', $1)`, [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'feed', uid: `${name}-uid` } },
    ]);
  }
}

const receiver = (key: string, options: Partial<FeedSubscriber> = {}) => {
  const names: string[] = [];
  const subscriber: FeedSubscriber = { key, ...options, deliver: (change: Change) => names.push(change.name) };
  return { subscriber, names };
};

describe('the notification of a change', () => {
  it('names the resource changed, for inserts, updates and deletes made with SQL', async () => {
    const listener = new Client({ connectionString: server().databaseUrl });
    await listener.connect();
    const payloads: string[] = [];
    listener.on('notification', (n) => payloads.push(n.payload ?? ''));
    await listener.query('LISTEN pgkube_changes');
    try {
      await insertConfigMaps('notified');
      await server().sql(`UPDATE objects SET body = jsonb_set(body, '{data}', '{"a":"b"}') WHERE resource = 'configmaps' AND name = 'notified'`);
      await server().sql(`DELETE FROM objects WHERE resource = 'configmaps' AND name = 'notified'`);
      await until(() => payloads.length >= 3, 5000, 5);
      expect(payloads).toEqual(['/configmaps', '/configmaps', '/configmaps']);
    } finally {
      await listener.end();
    }
  });
});

describe('a change feed told of changes', () => {
  // A feed of its own over the server's database, without a listening connection or a poll: only `notified` wakes it.
  let feed: ChangeFeed;
  let reads = 0;

  beforeAll(async () => {
    const history = server().app.get(ChangeHistory);
    const counting = Object.create(history) as ChangeHistory;
    counting.after = (...args) => {
      reads++;
      return history.after(...args);
    };
    feed = new ChangeFeed(counting, server().app.get(ChangeNotifications), server().app.get(ServerMetrics), server().app.get(DatabaseHistory));
    expect(await feed.reaches(await history.newest(), 5000)).toBe(true);
  });

  afterAll(() => feed.onApplicationShutdown());

  it('reads once, a moment later, for the changes of several writes that only relaxed subscribers receive', async () => {
    const collector = receiver(ALL_RESOURCES, { relaxed: true, metadataOnly: true });
    feed.subscribe(collector.subscriber);
    reads = 0;
    await insertConfigMaps('relaxed-1', 'relaxed-2', 'relaxed-3');
    const told = Date.now();
    for (let i = 0; i < 3; i++) feed.notified('/configmaps');
    expect(reads).toBe(0);
    await until(() => collector.names.length === 3, 5000, 5);
    expect(Date.now() - told).toBeGreaterThanOrEqual(RELAXED_READ_DELAY_MS - 5);
    expect(reads).toBe(1);
    expect(collector.names).toEqual(['relaxed-1', 'relaxed-2', 'relaxed-3']);
    feed.unsubscribe(collector.subscriber);
  });

  it('reads at once for a resource with a prompt subscriber, or for a notification that names none', async () => {
    const collector = receiver(ALL_RESOURCES, { relaxed: true });
    const watcher = receiver('/configmaps');
    feed.subscribe(collector.subscriber);
    feed.subscribe(watcher.subscriber);
    try {
      reads = 0;
      await insertConfigMaps('prompt-1');
      feed.notified('/configmaps');
      expect(reads).toBe(1);
      await until(() => watcher.names.length === 1, 5000, 5);
      await insertConfigMaps('prompt-2');
      feed.notified('/secrets'); // only the relaxed collector would receive it: no read yet
      expect(reads).toBe(1);
      feed.notified('');
      expect(reads).toBe(2);
      await until(() => watcher.names.length === 2, 5000, 5);
      expect(watcher.names).toEqual(['prompt-1', 'prompt-2']);
      expect(collector.names).toEqual(watcher.names);
    } finally {
      feed.unsubscribe(collector.subscriber);
      feed.unsubscribe(watcher.subscriber);
    }
  });
});
