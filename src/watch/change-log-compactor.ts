import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Settings } from '../config/settings';
import { PrismaService } from '../storage/database/prisma.service';
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
    private readonly prisma: PrismaService,
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
    return this.prisma.$transaction(async (tx) => {
      const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(7365, 2) AS locked`;
      if (!locked) return { removed: 0 };
      const newest = await tx.change.findFirst({ orderBy: { resourceVersion: 'desc' }, select: { resourceVersion: true } });
      if (!newest) return { removed: 0 };
      const beyondCount = await tx.change.findFirst({
        orderBy: { resourceVersion: 'desc' },
        skip: this.settings.CHANGE_LOG_RETENTION_COUNT,
        select: { resourceVersion: true },
      });
      const tooOld = await tx.change.findFirst({
        where: { changedAt: { lt: new Date(now.getTime() - this.settings.CHANGE_LOG_RETENTION_SECONDS * 1000) } },
        orderBy: { resourceVersion: 'desc' },
        select: { resourceVersion: true },
      });
      const candidates = [beyondCount, tooOld].filter((c) => c !== null).map((c) => c.resourceVersion);
      if (candidates.length === 0) return { removed: 0 };
      let through = candidates.reduce((a, b) => (a > b ? a : b));
      if (through >= newest.resourceVersion) through = newest.resourceVersion - 1n;
      const { count } = await tx.change.deleteMany({ where: { resourceVersion: { lte: through } } });
      if (count === 0) return { removed: 0 };
      await tx.changeLogCompaction.updateMany({
        where: { compactedThrough: { lt: through } },
        data: { compactedThrough: through, compactedAt: now },
      });
      this.logger.log(`removed ${count} changes up to resourceVersion ${through}`);
      return { removed: count, compactedThrough: through };
    });
  }
}
