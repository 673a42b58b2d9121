import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { apiErrors } from '../apimachinery/errors/status-error';
import { KindDefinition, storageKeyOf } from '../registry/kind-definition';
import { ListOptions } from '../registry/store/list-options';
import { listQuery } from '../registry/store/list-options-query';
import { ObjectStore } from '../storage/objects/object-store';
import { Settings } from '../config/settings';
import { ServerMetrics } from '../metrics/server-metrics';
import { ChangeFeed } from './change-feed.service';
import { ChangeHistory } from '../storage/changes/change-history';
import { lostVersion } from '../storage/database/lost-version';
import { readPlannedList } from '../registry/store/consistent-list';
import { openServedList } from '../registry/store/served-version';
import { gone, SessionHooks, WatchSession } from './watch-session';
import { DatabaseHistory } from '../storage/database/database-history';

/**
 * A watch without timeoutSeconds lasts between the minimum request timeout and twice that: 30 to 60 minutes by
 * default, as in the apiserver.
 */
export function watchTimeoutSeconds(requested: number | undefined, minRequestTimeout: number): number {
  if (requested === undefined || requested === 0) return minRequestTimeout * (1 + Math.random());
  return requested;
}

/** `deployments.extensions`, as the apiserver names a resource in its metrics. */
const groupResource = (def: KindDefinition) => (def.group ? `${def.resource}.${def.group}` : def.resource);

/** Opens watches, counts what they send, and ends them all when the server stops. */
@Injectable()
export class WatchService implements BeforeApplicationShutdown {
  private readonly sessions = new Set<WatchSession>();
  private stopping = false;
  private readonly hooks: SessionHooks = {
    sent: (session, events) => this.metrics.watchEvents.inc({ group: session.def.group, version: session.def.version, kind: session.def.kind }, events),
    closed: (session, unresponsive) => {
      this.sessions.delete(session);
      this.feed.unsubscribe(session);
      if (unresponsive) this.metrics.terminatedWatchers.inc({ resource: groupResource(session.def) });
    },
    position: () => this.feed.position,
  };

  constructor(
    private readonly feed: ChangeFeed,
    private readonly history: ChangeHistory,
    private readonly store: ObjectStore,
    private readonly settings: Settings,
    private readonly metrics: ServerMetrics,
    private readonly databaseHistory: DatabaseHistory,
  ) {}

  /** The open watches of each kind. */
  openWatches(): Map<KindDefinition, number> {
    const counts = new Map<KindDefinition, number>();
    for (const session of this.sessions) counts.set(session.def, (counts.get(session.def) ?? 0) + 1);
    return counts;
  }

  /**
   * Starts a watch. It subscribes to the feed first, so nothing after the feed's position is missed; then it sends
   * the current state (resourceVersion unset or 0; with sendInitialEvents, a state at least as new as the version,
   * ended by a bookmark), or nothing (sendInitialEvents=false from now), or the history after the requested version,
   * and goes live.
   */
  async open(def: KindDefinition, namespace: string | undefined, options: ListOptions): Promise<WatchSession> {
    if (this.stopping) throw apiErrors.serviceUnavailable('the server is shutting down');
    const session = new WatchSession(def, namespace, options, this.hooks);
    this.sessions.add(session);
    const position = this.feed.subscribe(session);
    try {
      const requested = options.resourceVersion;
      const fromNow = requested === undefined || requested === '0';
      if (options.sendInitialEvents || (fromNow && options.sendInitialEvents === undefined)) {
        // the state, newest (at least as new as the version, for a watch-list), read as it is sent
        const minimum = fromNow ? undefined : BigInt(requested);
        const cursor = await readPlannedList(
          { range: {}, minimum },
          this.databaseHistory,
          (range) => openServedList(this.store, def, listQuery(def, namespace, options, range)),
          (unused) => unused.close(),
        );
        session.startFromSnapshot(cursor, options.sendInitialEvents);
      } else if (fromNow) {
        // from the newest committed change, which the feed may not have read yet (it lets unwatched changes gather)
        const newest = await this.history.newest();
        session.startFromHistory([], newest > position ? newest : position);
      } else {
        // The history between the requested version and the feed's position (none when the feed has not reached the
        // version yet, as when it lets changes nobody watched gather), and whether the version is still retained.
        const from = BigInt(requested);
        const stored = storageKeyOf(def);
        const { compactedThrough, changes } = await this.history.between(stored.group, stored.resource, from, position);
        if (from < compactedThrough) session.fail(gone(def, `too old resource version: ${requested} (${compactedThrough})`));
        else if (this.databaseHistory.lost(from)) session.fail(gone(def, lostVersion(requested)));
        else session.startFromHistory(changes, from > position ? from : position);
      }
    } catch (error) {
      session.close();
      throw error;
    }
    session.endAfter(watchTimeoutSeconds(options.timeoutSeconds, this.settings.MIN_REQUEST_TIMEOUT));
    return session;
  }

  beforeApplicationShutdown(): void {
    this.stopping = true;
    for (const session of [...this.sessions]) session.close();
  }
}
