import { Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { Settings } from '../config/settings';
import { ChangeFeed } from '../watch/change-feed.service';
import { WatchService } from '../watch/watch.service';
import { ServerMetrics } from '../metrics/server-metrics';
import { ChangeHistory } from '../storage/changes/change-history';
import { PoolState } from '../storage/pool-state';

/** The metrics that are a reading of this instance's state, taken at each scrape. */
@Injectable()
export class StateGauges {
  constructor(
    metrics: ServerMetrics,
    settings: Settings,
    pool: PoolState,
    feed: ChangeFeed,
    history: ChangeHistory,
    watches: WatchService,
  ) {
    const registers = [metrics.registry];
    new Gauge({
      name: 'apiserver_registered_watchers',
      help: 'Number of currently registered watchers for a given resource.',
      labelNames: ['group', 'version', 'kind'],
      registers,
      collect() {
        this.reset();
        for (const [def, count] of watches.openWatches()) this.set({ group: def.group, version: def.version, kind: def.kind }, count);
      },
    });
    new Gauge({
      name: 'pgkube_change_feed_connected',
      help: '1 while the change-feed listener is connected and its last read of the change log succeeded.',
      registers,
      collect() {
        this.set(feed.connected ? 1 : 0);
      },
    });
    new Gauge({
      name: 'pgkube_change_feed_delivered_resource_version',
      help: 'The resourceVersion of the last change this instance delivered to its watchers.',
      registers,
      collect() {
        this.set(Number(feed.position));
      },
    });
    new Gauge({
      name: 'pgkube_database_pool_connections',
      help: "Connections open in this instance's PostgreSQL pool, by state (idle, in_use).",
      labelNames: ['state'],
      registers,
      collect() {
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'in_use' }, pool.inUse);
      },
    });
    new Gauge({
      name: 'pgkube_database_pool_max_connections',
      help: "The most connections this instance's PostgreSQL pool opens (DATABASE_POOL_SIZE).",
      registers,
      collect() {
        this.set(settings.DATABASE_POOL_SIZE);
      },
    });
    new Gauge({
      name: 'pgkube_database_pool_waiting_requests',
      help: 'Queries waiting for a connection of the pool.',
      registers,
      collect() {
        this.set(pool.waiting);
      },
    });
    // Collected in registration order: the change log is read (after the pool is sampled), then the lag computed.
    let newest: bigint | undefined;
    new Gauge({
      name: 'pgkube_change_log_resource_version',
      help: 'The change log: the newest committed resourceVersion (position="newest") and the compaction horizon (position="compacted_through").',
      labelNames: ['position'],
      registers,
      async collect() {
        const state = await history.state().catch(() => undefined);
        newest = state?.newest;
        if (!state) return;
        this.set({ position: 'newest' }, Number(state.newest));
        this.set({ position: 'compacted_through' }, Number(state.compactedThrough));
      },
    });
    new Gauge({
      name: 'pgkube_change_feed_lag',
      help: 'How far this instance is behind the change log: the newest committed resourceVersion minus the last one it delivered.',
      registers,
      collect() {
        if (newest !== undefined) this.set(Math.max(0, Number(newest - feed.position)));
      },
    });
  }
}
