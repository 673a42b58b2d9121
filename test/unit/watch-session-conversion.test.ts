import { WatchSession } from '../../src/watch/watch-session';
import { WatchEvent } from '../../src/watch/watch-events';
import { KindDefinition } from '../../src/registry/kind-definition';
import { Change } from '../../src/storage/changes/change';
import { StatusError } from '../../src/apimachinery/errors/status-error';

/** A custom resource's row whose objects a call (here: at once) converts. */
const def = {
  group: 'example.com',
  version: 'v2',
  resource: 'gadgets',
  kind: 'Gadget',
  listKind: 'GadgetList',
  namespaced: true,
  storageConversion: {
    fromStored: async (objects: any[]) => objects.map((o) => ({ ...o, apiVersion: 'example.com/v2' })),
    toStored: async (object: any) => object,
    storedIn: 'example.com/v1',
  },
} as unknown as KindDefinition;

const change = (resourceVersion: bigint): Change => ({
  resourceVersion,
  type: 'ADDED',
  group: 'example.com',
  resource: 'gadgets',
  namespace: 'default',
  name: `g${resourceVersion}`,
  object: { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: `g${resourceVersion}`, namespace: 'default' } },
});

describe('a watch of objects converted by a call', () => {
  it('ends cleanly, leaving no rejection unhandled, when a converted event cannot be written', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const closed: boolean[] = [];
      const session = new WatchSession(def, 'default', { labels: [], fields: [], includeUninitialized: true, allowWatchBookmarks: false }, { sent: () => undefined, closed: (_, unresponsive) => closed.push(unresponsive), position: () => 0n });
      const sent: WatchEvent[] = [];
      session.attach({
        send: (events) => {
          if (events.some((event) => event.type === 'ADDED')) throw new RangeError('Maximum call stack size exceeded');
          sent.push(...events);
          return true;
        },
        drained: async () => undefined,
        end: () => undefined,
      });
      session.startFromHistory([], 0n);
      session.deliver(change(1n));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
      expect(closed).toEqual([false]);
      expect(sent).toEqual([{ type: 'ERROR', object: expect.objectContaining({ kind: 'Status', code: 500, message: expect.stringContaining('Maximum call stack') }) }]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});

describe('the initial events of a watch of objects converted by a call', () => {
  it('return the connection as sound when a conversion fails, and end with its Status', async () => {
    const closedWith: unknown[] = [];
    const cursor = {
      resourceVersion: '1',
      async *batches() {
        throw new StatusError(500, undefined, 'conversion webhook for example.com/v1, Kind=Gadget failed: no');
      },
      close: async (failure?: unknown) => void closedWith.push(failure),
    };
    const session = new WatchSession(
      def,
      'default',
      { labels: [], fields: [], includeUninitialized: true, allowWatchBookmarks: false },
      { sent: () => undefined, closed: () => undefined, position: () => 0n },
    );
    const sent: WatchEvent[] = [];
    session.startFromSnapshot(cursor as any);
    session.attach({ send: (events) => sent.push(...events) > 0, drained: async () => undefined, end: () => undefined });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closedWith).toEqual([undefined]);
    expect(sent).toEqual([{ type: 'ERROR', object: expect.objectContaining({ code: 500, message: expect.stringContaining('failed: no') }) }]);
  });
});

describe('the events of a watch waiting for their conversion', () => {
  it('count against the events a session holds: past them the client is dropped as too slow', () => {
    const stuck = { ...def, storageConversion: { ...(def.storageConversion as object), fromStored: () => new Promise(() => undefined) } } as unknown as KindDefinition;
    const closed: boolean[] = [];
    const session = new WatchSession(
      stuck,
      'default',
      { labels: [], fields: [], includeUninitialized: true, allowWatchBookmarks: false },
      { sent: () => undefined, closed: (_, unresponsive) => closed.push(unresponsive), position: () => 0n },
    );
    session.attach({ send: () => true, drained: async () => undefined, end: () => undefined });
    session.startFromHistory([], 0n);
    for (let version = 1n; version <= 100_001n && closed.length === 0; version++) session.deliver(change(version));
    expect(closed).toEqual([true]);
  });
});
