import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { Status } from '../common/errors/status-error';
import { KindDefinition } from '../common/registry/kind-definition';
import { ListOptions, listConditions } from '../common/selectors/list-options';
import { ObjectStore } from '../common/store/object-store';
import { ChangeFeed } from './change-feed.service';
import { ChangeHistory } from './change-history';
import { WatchSession } from './watch-session';

/** A watch without timeoutSeconds lasts 30 to 60 minutes, as in the apiserver (reference §6.5). */
const DEFAULT_TIMEOUT_SECONDS = 1800;

export function watchTimeoutSeconds(requested: number | undefined): number {
  if (requested === undefined || requested === 0) return DEFAULT_TIMEOUT_SECONDS * (1 + Math.random());
  return requested;
}

function gone(requested: string, compactedThrough: bigint): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `too old resource version: ${requested} (${compactedThrough})`,
    reason: 'Gone',
    code: 410,
  };
}

/** Opens watches (reference §6.4) and ends them all when the server stops. */
@Injectable()
export class WatchService implements BeforeApplicationShutdown {
  private readonly sessions = new Set<WatchSession>();

  constructor(
    private readonly feed: ChangeFeed,
    private readonly history: ChangeHistory,
    private readonly store: ObjectStore,
  ) {}

  /**
   * Starts a watch. It subscribes to the feed first, so nothing after the feed's position is missed; then it sends
   * the current state (resourceVersion unset or 0) or the history after the requested version, and goes live.
   */
  async open(def: KindDefinition, namespace: string | undefined, options: ListOptions): Promise<WatchSession> {
    const session = new WatchSession(def, namespace, options, (closed) => {
      this.sessions.delete(closed);
      this.feed.unsubscribe(closed);
    });
    this.sessions.add(session);
    const position = this.feed.subscribe(session);
    try {
      const requested = options.resourceVersion;
      if (requested === undefined || requested === '0') {
        const { items, resourceVersion } = await this.store.list(def, namespace, listConditions(def, options));
        session.startFromSnapshot(items, BigInt(resourceVersion));
      } else if (BigInt(requested) >= position) {
        session.startFromHistory([], BigInt(requested));
      } else {
        const { compactedThrough, changes } = await this.history.between(def.group, def.resource, BigInt(requested), position);
        if (BigInt(requested) < compactedThrough) session.fail(gone(requested, compactedThrough));
        else session.startFromHistory(changes, position);
      }
    } catch (error) {
      session.close();
      throw error;
    }
    session.endAfter(watchTimeoutSeconds(options.timeoutSeconds));
    return session;
  }


  beforeApplicationShutdown(): void {
    for (const session of [...this.sessions]) session.close();
  }
}
