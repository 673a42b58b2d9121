import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Pool } from 'pg';
import { Settings } from '../config/settings';
import { PG_POOL } from '../database/database.tokens';
import { inTransaction } from '../database/transaction';
import { ServerMetrics } from '../metrics/server-metrics';

export interface CompactionResult {
  removed: number;
  /** the new horizon: changes up to here are gone */
  compactedThrough?: bigint;
}

/**
 * Keeps the change log within its retention window: changes older than CHANGE_LOG_RETENTION_SECONDS, or beyond the
 * newest CHANGE_LOG_RETENTION_COUNT, are removed and the compaction horizon is raised in the same transaction, so a
 * watch from before the horizon is answered 410 Gone. The newest change is always kept (a list's resourceVersion is
 * read from it). Every instance runs this; a transaction-scoped advisory lock lets one do the work at a time.
 */
@Injectable()
export class ChangeLogCompactor implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Compaction');
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly settings: Settings,
    private readonly metrics: ServerMetrics,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => {
      this.running ??= this.compact()
        .catch((error: Error) => this.logger.warn(`compaction failed: ${error.message}`))
        .finally(() => (this.running = undefined));
    }, this.settings.COMPACTION_INTERVAL_SECONDS * 1000);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One compaction run, counted in the metrics by its result. */
  async compact(now = new Date()): Promise<CompactionResult> {
    try {
      const result = await this.compactOnce(now);
      this.metrics.compactions.inc({ result: result.removed > 0 ? 'compacted' : 'idle' });
      this.metrics.compactedChanges.inc(result.removed);
      return result;
    } catch (error) {
      this.metrics.compactions.inc({ result: 'failed' });
      throw error;
    }
  }

  private compactOnce(now: Date): Promise<CompactionResult> {
    const tooOldBefore = new Date(now.getTime() - this.settings.CHANGE_LOG_RETENTION_SECONDS * 1000);
    return inTransaction(this.pool, async (tx) => {
      const { rows: [{ locked }] } = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(7365, 2) AS locked');
      if (!locked) return { removed: 0 };
      // the newest change, the newest beyond the retained count, and the newest older than the retained age
      const { rows: [bounds] } = await tx.query<Record<'newest' | 'beyond_count' | 'too_old', string | null>>(
        `SELECT (SELECT max(resource_version) FROM change_log)::text AS newest,
                (SELECT resource_version FROM change_log ORDER BY resource_version DESC OFFSET $1 LIMIT 1)::text AS beyond_count,
                (SELECT max(resource_version) FROM change_log WHERE changed_at < $2)::text AS too_old`,
        [this.settings.CHANGE_LOG_RETENTION_COUNT, tooOldBefore],
      );
      if (bounds.newest === null) return { removed: 0 };
      const candidates = [bounds.beyond_count, bounds.too_old].filter((c) => c !== null).map(BigInt);
      if (candidates.length === 0) return { removed: 0 };
      let through = candidates.reduce((a, b) => (a > b ? a : b));
      if (through >= BigInt(bounds.newest)) through = BigInt(bounds.newest) - 1n;
      const { rowCount } = await tx.query('DELETE FROM change_log WHERE resource_version <= $1', [through.toString()]);
      const count = rowCount ?? 0;
      if (count === 0) return { removed: 0 };
      await tx.query(
        'UPDATE change_log_compaction SET compacted_through = $1, compacted_at = $2 WHERE compacted_through < $1',
        [through.toString(), now],
      );
      this.logger.log(`removed ${count} changes up to resourceVersion ${through}`);
      return { removed: count, compactedThrough: through };
    });
  }
}
