import { Logger } from '@nestjs/common';
import { KubeObject } from '../apimachinery/meta/kube-object';
import { ObjectStore } from '../storage/objects/object-store';
import { Change, resourceKey } from '../storage/changes/change';
import { ChangeFeed, FeedSubscriber } from './change-feed.service';
import { ChangeHistory } from '../storage/changes/change-history';

/** What an informer follows: the objects of one resource, in one namespace or (unset) in all. */
export interface InformedResource {
  group: string;
  resource: string;
  namespace?: string;
}

/**
 * What an informer tells of each object (upstream's resource event handlers). Handlers run while the change feed
 * delivers the change, before any later change is delivered; they must not modify the objects, which are shared.
 */
export interface InformerHandlers {
  /** an object that came to be; `initialList` when it was in the informer's first list */
  added?(object: KubeObject, initialList: boolean): void;
  updated?(object: KubeObject, previous: KubeObject): void;
  /** an object gone, in its last state known, with the resourceVersion of its deletion (or of the list that missed it) */
  deleted?(object: KubeObject, resourceVersion: bigint): void;
}

/** The key of an object in an informer's cache: `namespace/name`, or the name alone for a cluster-scoped object. */
export const objectKey = (namespace: string | undefined, name: string) => (namespace ? `${namespace}/${name}` : name);

const keyOf = (object: KubeObject) => objectKey(object.metadata.namespace, object.metadata.name as string);

/** A change's object with the resourceVersion of the change (the change log stores objects without it). */
const stamped = (change: Change): KubeObject => ({
  ...change.object,
  metadata: { ...change.object.metadata, resourceVersion: change.resourceVersion.toString() },
});

/** Between a feed's failed resync and the next try. */
const RESYNC_RETRY_MS = 1000;

/**
 * The objects of one resource in memory, kept current from this instance's change feed, with handlers told of each
 * change (upstream's shared informer: a reflector that lists and then watches from the list's resourceVersion, a
 * cache by key, event handlers, HasSynced). It subscribes to the feed first and holds what the feed delivers; then
 * it lists (or, started again after a stop, replays the resource's history after the resourceVersion it stopped at),
 * and applies the held changes newer than that. When the history it needs was compacted away, or the feed could not
 * deliver one of the resource's changes, it lists again and tells the differences, as upstream relists on 410 Gone.
 * Writes through any instance, and by SQL on the objects table, reach it as the feed delivers them.
 */
export class SharedInformer {
  private readonly logger: Logger;
  private readonly cache = new Map<string, KubeObject>();
  private readonly handlers: InformerHandlers[] = [];
  private readonly subscriber: FeedSubscriber;
  /** the resourceVersion the cache is current at (upstream's last sync resourceVersion); unset before the first list */
  private syncedAt?: bigint;
  /** changes delivered while the informer lists or replays, applied after; unset while it follows the feed */
  private held?: Change[];
  /** set when the informer must list (again) before it follows the feed */
  private mustList = false;
  /** the feed's position at a start: the history up to it is to be replayed, unless a list is due */
  private replayTo?: bigint;
  private syncing?: Promise<void>;
  private running = false;

  constructor(
    readonly resource: InformedResource,
    private readonly feed: ChangeFeed,
    private readonly history: ChangeHistory,
    private readonly store: ObjectStore,
  ) {
    const { group, resource: name, namespace } = resource;
    this.logger = new Logger(`Informer ${name}${group ? `.${group}` : ''}${namespace ? ` in ${namespace}` : ''}`);
    this.subscriber = {
      key: resourceKey(group, name),
      deliver: (change) => (this.held ? this.held.push(change) : this.apply(change)),
      missed: () => this.resync(),
    };
  }

  /** True once the cache has been current: listed, and the changes since applied. */
  get hasSynced(): boolean {
    return this.syncedAt !== undefined && !this.held;
  }

  /** The resourceVersion the cache is current at. */
  get resourceVersion(): bigint | undefined {
    return this.syncedAt;
  }

  /** The cached object of a key (see objectKey). */
  get(key: string): KubeObject | undefined {
    return this.cache.get(key);
  }

  /** Every cached object. */
  list(): IterableIterator<KubeObject> {
    return this.cache.values();
  }

  /** Adds handlers; those added after the first list are told first of every cached object. */
  addEventHandler(handlers: InformerHandlers): void {
    this.handlers.push(handlers);
    for (const object of this.cache.values()) this.tell(() => handlers.added?.(object, true));
  }

  /**
   * Follows the feed (again, after a stop); resolves once the cache is current, and rejects (stopped again) when
   * reading the state failed. Calling it while it follows changes nothing.
   */
  start(): Promise<void> {
    if (this.running) return this.syncing ?? Promise.resolve();
    this.running = true;
    this.held ??= [];
    this.replayTo = this.feed.subscribe(this.subscriber);
    if (this.syncedAt === undefined) this.mustList = true;
    return this.sync().catch((error: Error) => {
      this.stop();
      throw error;
    });
  }

  /** Stops following the feed; the cache stays as it is, and a later start goes on from where it stopped. */
  stop(): void {
    this.running = false;
    this.feed.unsubscribe(this.subscriber);
  }

  /** Lists again, as after a gap in the changes (a sync under way lists once more). */
  private resync(): void {
    this.mustList = true;
    if (!this.running) return;
    this.held ??= [];
    this.sync().catch((error: Error) => {
      this.logger.error(`listing again failed (will retry): ${error.message}`);
      setTimeout(() => this.resync(), RESYNC_RETRY_MS).unref();
    });
  }

  /** The one sync under way (which takes up what a start or a resync asks meanwhile), or a new one. */
  private sync(): Promise<void> {
    this.syncing ??= Promise.resolve().then(() => this.bringUpToDate());
    return this.syncing;
  }

  /**
   * Replays or lists until nothing more is due, then applies the changes held meanwhile and follows the feed. It
   * ends the sync in the same step as it stops holding changes, so that a start or a resync never waits on a sync
   * that will not take them up.
   */
  private async bringUpToDate(): Promise<void> {
    try {
      while (this.replayTo !== undefined || this.mustList) {
        const position = this.replayTo;
        this.replayTo = undefined;
        if (this.mustList) {
          this.mustList = false;
          await this.relist().catch((error: unknown) => {
            this.mustList = true;
            throw error;
          });
        } else await this.replay(position as bigint);
      }
      const held = this.held ?? [];
      this.held = undefined;
      for (const change of held) this.apply(change);
    } finally {
      this.syncing = undefined;
    }
  }

  /** Applies the resource's changes after the cache's resourceVersion up to the feed's `position`, unless compacted. */
  private async replay(position: bigint): Promise<void> {
    const from = this.syncedAt as bigint;
    const { compactedThrough, changes } = await this.history.between(this.resource.group, this.resource.resource, from, position);
    if (from < compactedThrough) {
      this.logger.log(`the changes after resourceVersion ${from} were compacted away; listing again`);
      this.mustList = true;
    } else for (const change of changes) this.apply(change);
  }

  /** Reads the current state and tells how it differs from the cache (all of it ADDED, the first time). */
  private async relist(): Promise<void> {
    const { group, resource, namespace } = this.resource;
    const { items, resourceVersion } = await this.store.list({ group, resource }, { namespace });
    const listedAt = BigInt(resourceVersion);
    const initialList = this.syncedAt === undefined;
    const listed = new Map(items.map((object) => [keyOf(object), object]));
    for (const [key, object] of this.cache) {
      if (listed.has(key)) continue;
      this.cache.delete(key);
      this.tellAll((h) => h.deleted?.(object, listedAt));
    }
    for (const [key, object] of listed) {
      const previous = this.cache.get(key);
      this.cache.set(key, object);
      if (!previous) this.tellAll((h) => h.added?.(object, initialList));
      else if (previous.metadata.resourceVersion !== object.metadata.resourceVersion) this.tellAll((h) => h.updated?.(object, previous));
    }
    this.syncedAt = listedAt;
  }

  /** Applies one change of the resource newer than the cache. */
  private apply(change: Change): void {
    if (this.syncedAt !== undefined && change.resourceVersion <= this.syncedAt) return;
    this.syncedAt = change.resourceVersion;
    const { namespace } = this.resource;
    if (namespace !== undefined && change.namespace !== namespace) return;
    const key = objectKey(change.namespace, change.name);
    const previous = this.cache.get(key);
    const object = stamped(change);
    if (change.type === 'DELETED') {
      if (!previous) return;
      this.cache.delete(key);
      this.tellAll((h) => h.deleted?.(object, change.resourceVersion));
    } else {
      this.cache.set(key, object);
      if (previous) this.tellAll((h) => h.updated?.(object, previous));
      else this.tellAll((h) => h.added?.(object, false));
    }
  }

  private tellAll(call: (handlers: InformerHandlers) => void): void {
    for (const handlers of this.handlers) this.tell(() => call(handlers));
  }

  /** A failing handler is logged, and the others are told all the same. */
  private tell(call: () => void): void {
    try {
      call();
    } catch (error) {
      this.logger.error(`a handler failed: ${(error as Error).stack}`);
    }
  }
}
