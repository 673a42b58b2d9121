import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ServerMetrics } from '../metrics/server-metrics';
import { ALL_RESOURCES, Change, resourceKey } from '../storage/changes/change';
import { BodilessChange, ChangeHistory } from '../storage/changes/change-history';
import { ChangeListener, ChangeNotifications } from '../storage/changes/change-notifications';
import { DatabaseHistory } from '../storage/database/database-history';

const PAGE = 500;
/** A backstop for notifications lost while the listening connection was silently broken. */
const POLL_INTERVAL_MS = 1000;
/** How long the changes of resources that only relaxed subscribers receive may gather before the feed reads them. */
export const RELAXED_READ_DELAY_MS = 100;

export { ALL_RESOURCES } from '../storage/changes/change';

/** Receives the changes of one resource (or of all), in resourceVersion order, each exactly once. */
export interface FeedSubscriber {
  /** resourceKey(group, resource), or ALL_RESOURCES */
  readonly key: string;
  /** true when the subscriber looks at nothing but the objects' metadata (and not at their managed fields) */
  readonly metadataOnly?: boolean;
  /**
   * true when the subscriber may receive a change up to RELAXED_READ_DELAY_MS after its commit: the feed then reads
   * the changes of many writes at once rather than each write's alone (the garbage collector, which is no faster
   * than that anyway, subscribes to every resource)
   */
  readonly relaxed?: boolean;
  deliver(change: Change): void;
  /**
   * Told of a change of its resource that was compacted away before the feed could read what the subscriber needs
   * of it, or that the database's history went back past changes it was given (a failover to a standby that lacked
   * them, a restored backup): what the subscriber derived from the changes is no longer complete or true (an
   * informer lists again, a watch ends with 410).
   */
  missed?(resourceVersion: bigint): void;
  /**
   * The newest resourceVersion the subscriber follows changes after, when it may be past the feed's position (a watch
   * from a version another instance wrote, which this feed has not read yet)
   */
  following?(): bigint;
}

/**
 * This instance's reader of the change log. Notifications only wake it: it then reads every change after the last
 * one it delivered, in resourceVersion order, and fans each out in memory to the subscribers of its resource.
 * Because resourceVersions become visible in order (see the README), reading "after the last delivered" never skips
 * a change; after a reconnect it simply reads on from where it was.
 *
 * Objects are read (and parsed) only for the resources someone subscribes to, and only their metadata for those whose
 * subscribers look at nothing else (the garbage collector): an instance reads little of the changes to kinds nobody
 * watches through it.
 */
@Injectable()
export class ChangeFeed implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ChangeFeed');
  private readonly subscribers = new Map<string, Set<FeedSubscriber>>();
  private delivered = 0n;
  /** the database's history (database_history's epoch) the delivered changes belong to */
  private epoch = 0;
  private listener?: ChangeListener;
  private poll?: NodeJS.Timeout;
  private reading?: Promise<void>;
  private readAgain = false;
  private healthy = false;
  private relaxedRead?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly history: ChangeHistory,
    private readonly notifications: ChangeNotifications,
    private readonly metrics: ServerMetrics,
    private readonly databaseHistory: DatabaseHistory,
  ) {}

  /** The resourceVersion of the last change delivered to subscribers. */
  get position(): bigint {
    return this.delivered;
  }

  /** True while the listening connection is up and the last read of the change log succeeded. */
  get connected(): boolean {
    return this.healthy;
  }

  /** Whether the feed has delivered every change up to `position`, reading on for up to `timeoutMs` if not yet. */
  async reaches(position: bigint, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.delivered < position && Date.now() < deadline) {
      this.catchUp();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.delivered >= position;
  }

  async onModuleInit(): Promise<void> {
    this.epoch = this.databaseHistory.epoch;
    this.delivered = await this.history.newest();
    this.listener = await this.notifications.listen({
      changed: (resource) => this.notified(resource),
      connected: () => this.checkHistory(),
      reconnecting: (attempt) => {
        this.healthy = false;
        if (attempt === 1) this.logger.warn('change-feed connection lost; reconnecting');
      },
      failed: (error) => this.logger.error(`change-feed listener: ${error.message}`),
    });
    this.healthy = true;
    this.poll = setInterval(() => this.checkHistory(), POLL_INTERVAL_MS);
    this.poll.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true; // a notification that comes while the listener closes reads nothing
    clearInterval(this.poll);
    clearTimeout(this.relaxedRead);
    await this.listener?.close().catch(() => undefined);
    await this.reading;
  }

  /**
   * Adds a subscriber and returns the position from which it receives every change: changes up to that position
   * are the caller's to read from history.
   */
  subscribe(subscriber: FeedSubscriber): bigint {
    let set = this.subscribers.get(subscriber.key);
    if (!set) this.subscribers.set(subscriber.key, (set = new Set()));
    set.add(subscriber);
    return this.delivered;
  }

  unsubscribe(subscriber: FeedSubscriber): void {
    const set = this.subscribers.get(subscriber.key);
    set?.delete(subscriber);
    if (set?.size === 0) this.subscribers.delete(subscriber.key);
  }

  /** The number of subscribers of each resource key. */
  subscriberCounts(): Map<string, number> {
    return new Map([...this.subscribers].map(([key, set]) => [key, set.size]));
  }

  /**
   * A notification that a change of `resource` (its resourceKey; empty from a trigger older than migration 0014)
   * committed: the feed reads at once when a subscriber of the resource is not relaxed, and within
   * RELAXED_READ_DELAY_MS otherwise, together with whatever else committed meanwhile.
   */
  notified(resource: string): void {
    if (this.stopped) return;
    if (resource === '' || this.hasPromptSubscriber(resource) || this.hasPromptSubscriber(ALL_RESOURCES)) this.catchUp();
    else this.relaxedRead ??= setTimeout(() => this.catchUp(), RELAXED_READ_DELAY_MS).unref();
  }

  private hasPromptSubscriber(key: string): boolean {
    for (const subscriber of this.subscribers.get(key) ?? []) if (!subscriber.relaxed) return true;
    return false;
  }

  /**
   * Checks the database's identity (adopting a new history, see DatabaseHistory: without it a promoted standby takes
   * no write), then reads on. A check that fails leaves it to the read to report the database's trouble.
   */
  private checkHistory(): void {
    if (this.stopped) return;
    void this.databaseHistory
      .check()
      .catch(() => undefined)
      .then(() => this.catchUp());
  }

  /** Reads the change log up to its end, unless a read is running (which then reads once more). */
  catchUp(): void {
    clearTimeout(this.relaxedRead);
    this.relaxedRead = undefined;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = this.readToEnd()
      .then(() => {
        this.healthy = true;
      })
      .catch((error: Error) => {
        this.healthy = false;
        this.logger.warn(`reading the change log failed (will retry): ${error.message}`);
      })
      .finally(() => {
        this.reading = undefined;
      });
  }

  private async readToEnd(): Promise<void> {
    do {
      this.readAgain = false;
      for (;;) {
        const { epoch, changes } = await this.history.after(this.delivered, PAGE, this.keys(false), this.keys(true));
        // a feed that has not known a history yet (none delivered from one) takes the one it reads
        if (this.epoch !== 0 && epoch !== this.epoch) {
          await this.follow(epoch);
          continue;
        }
        this.epoch = epoch;
        await this.deliver(changes);
        if (changes.length < PAGE) break;
      }
    } while (this.readAgain);
  }

  /**
   * Moves on to a history adopted since the delivered changes were read (migration 0025). When the new history
   * diverged before the last change delivered, changes the subscribers received are not in the database any more,
   * and their resourceVersions may be handed out again: every subscriber is told (a watch ends with 410, an informer
   * lists again), and the feed reads on from where the histories part.
   */
  private async follow(epoch: number): Promise<void> {
    await this.databaseHistory.check();
    const adopted = this.databaseHistory.adoptedSince(this.epoch, epoch);
    if (adopted.at(-1)?.epoch !== epoch) throw new Error(`the database's history ${epoch} is not known here yet`);
    const divergedAfter = adopted.reduce((low, e) => (e.divergedAfter < low ? e.divergedAfter : low), this.delivered);
    const subscribers = [...this.subscribers.values()].flatMap((set) => [...set]);
    if (divergedAfter < this.delivered) {
      this.logger.warn(
        `the database's history went back: changes ${divergedAfter + 1n} to ${this.delivered} are lost; every watch ends with 410 Gone`,
      );
      for (const subscriber of subscribers) subscriber.missed?.(this.delivered);
      this.delivered = divergedAfter;
    } else {
      // a subscriber that started past what this feed had read, from a version the new history does not have
      for (const subscriber of subscribers) {
        const following = subscriber.following?.();
        if (following !== undefined && this.databaseHistory.lost(following)) subscriber.missed?.(following);
      }
    }
    this.epoch = epoch;
  }

  /**
   * The keys whose objects are read whole (a subscriber of the key reads more than metadata), or with `metadataOnly`
   * those whose objects are read as their metadata alone (every subscriber of the key reads just that).
   */
  private keys(metadataOnly: boolean): string[] {
    return [...this.subscribers].filter(([, set]) => [...set].every((s) => s.metadataOnly) === metadataOnly).map(([key]) => key);
  }

  /** Whether a subscriber of the change needs more of it than was read (its objects, or their whole). */
  private lacks(change: Change | BodilessChange): boolean {
    const subscribers = this.subscribersOf(change);
    return change.object ? !!change.metadataOnly && subscribers.some((s) => !s.metadataOnly) : subscribers.length > 0;
  }

  /**
   * Delivers a page of changes. First it reads the objects of changes that lack them (read without them, or with
   * their metadata alone, before a subscriber that needs them came), until none is left; then it dispatches them in
   * the same turn as that last check (an async function's return would let a subscriber come in between, and see a
   * change without what it reads as if it had been compacted away).
   */
  private async deliver(changes: (Change | BodilessChange)[]): Promise<void> {
    const tried = new Set<bigint>();
    for (;;) {
      const missing = changes.filter((c) => !tried.has(c.resourceVersion) && this.lacks(c));
      if (missing.length === 0) break;
      missing.forEach((c) => tried.add(c.resourceVersion));
      const bodies = await this.history.bodies(missing.map((c) => c.resourceVersion));
      for (const change of missing) {
        const body = bodies.get(change.resourceVersion);
        if (!body) continue;
        Object.assign(change, body);
        delete change.metadataOnly;
      }
    }
    for (const change of changes) {
      this.delivered = change.resourceVersion;
      this.dispatch(change);
    }
  }

  private subscribersOf(change: Change | BodilessChange): FeedSubscriber[] {
    return [
      ...(this.subscribers.get(resourceKey(change.group, change.resource)) ?? []),
      ...(this.subscribers.get(ALL_RESOURCES) ?? []),
    ];
  }

  private dispatch(change: Change | BodilessChange): void {
    this.metrics.changesRead.inc({ group: change.group, resource: change.resource });
    if (this.lacks(change)) {
      this.logger.error(`change ${change.resourceVersion} was compacted away before it could be delivered`);
      for (const subscriber of this.subscribersOf(change)) subscriber.missed?.(change.resourceVersion);
      return;
    }
    for (const subscriber of this.subscribersOf(change)) {
      try {
        subscriber.deliver(change as Change);
      } catch (error) {
        this.logger.error(`watcher failed on change ${change.resourceVersion}: ${(error as Error).stack}`);
      }
    }
  }
}
