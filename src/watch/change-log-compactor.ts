import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Settings } from '../config/settings';
import { ServerMetrics } from '../metrics/server-metrics';
import { ChangeLogCompaction, CompactionResult } from '../storage/changes/change-log-compaction';
import { parseGoDuration } from '../apimachinery/parameters/duration';
import { CORE_EVENTS } from '../apis/core/core.kinds';
import { storageKeyOf } from '../registry/kind-definition';

/**
 * Keeps the change log within its retention window: changes older than CHANGE_LOG_RETENTION_SECONDS, or beyond the
 * newest CHANGE_LOG_RETENTION_COUNT, are removed and the compaction horizon is raised in the same transaction, so a
 * watch from before the horizon is answered 410 Gone. The newest change is always kept (a list's resourceVersion is
 * read from it). Events not written for EVENT_TTL are deleted in the same run (their DELETED changes reach watchers).
 * Every instance runs this; the storage lets one do the work at a time.
 */
@Injectable()
export class ChangeLogCompactor implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Compaction');
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly compaction: ChangeLogCompaction,
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

  private async compactOnce(now: Date): Promise<CompactionResult> {
    await this.expireEvents(now);
    const since = new Date(now.getTime() - this.settings.CHANGE_LOG_RETENTION_SECONDS * 1000);
    const result = await this.compaction.compact({ count: this.settings.CHANGE_LOG_RETENTION_COUNT, since }, now);
    if (result.removed > 0) this.logger.log(`removed ${result.removed} changes up to resourceVersion ${result.compactedThrough}`);
    return result;
  }

  /** Events not written for EVENT_TTL go; a failure is logged and the change log is compacted all the same. */
  private async expireEvents(now: Date): Promise<void> {
    try {
      const expired = await this.compaction.expire(storageKeyOf(CORE_EVENTS), new Date(now.getTime() - (parseGoDuration(this.settings.EVENT_TTL) as number)));
      if (expired > 0) this.logger.log(`deleted ${expired} events older than ${this.settings.EVENT_TTL}`);
    } catch (error) {
      this.logger.warn(`expiring events failed: ${(error as Error).message}`);
    }
  }
}
