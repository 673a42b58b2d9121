import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { Prisma } from '../database/generated/prisma/client';
import { StorageKey } from '../objects/object-key';

/** What the change log keeps: no more than the newest `count` changes, and none made before `since`. */
export interface ChangeLogRetention {
  count: number;
  since: Date;
}

/** Objects one expiry transaction deletes at most: it holds the lock every write waits for. */
const EXPIRY_BATCH = 500;

/**
 * Write fences (migration 0021) one compaction removes at most. A fence is asked for within seconds of its write;
 * those older than five minutes go.
 */
const FENCE_PRUNE_BATCH = 50_000;

export interface CompactionResult {
  removed: number;
  /** the new horizon: changes up to here are gone */
  compactedThrough?: bigint;
}

/** The transaction-scoped lock that lets one instance compact (or expire) at a time; false when another holds it. */
async function takeCompactionLock(tx: Prisma.TransactionClient): Promise<boolean> {
  const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(7365, 2) AS locked`;
  return locked;
}

/**
 * Changes one compaction transaction removes at most: a transaction may last a few seconds (Prisma's interactive
 * transactions end at 5 s), and a change log grown to a million rows (after a burst, or a restore) must still shrink.
 */
const COMPACTION_BATCH = 10_000;

/**
 * Removes the changes beyond the retention and raises the compaction horizon in the same transaction, under a
 * transaction-scoped advisory lock that lets one instance do it at a time (another finds the lock taken and removes
 * nothing). The oldest go first, a batch per transaction, each raising the horizon to the newest it removed. The
 * newest change is always kept: a list's resourceVersion is read from it. Old write fences go too.
 */
@Injectable()
export class ChangeLogCompaction {
  constructor(private readonly prisma: PrismaService) {}

  async compact(retention: ChangeLogRetention, now: Date): Promise<CompactionResult> {
    let result: CompactionResult = { removed: 0 };
    for (;;) {
      const batch = await this.compactBatch(retention, now);
      if (batch.removed > 0) result = { removed: result.removed + batch.removed, compactedThrough: batch.compactedThrough };
      if (batch.removed < COMPACTION_BATCH) return result;
    }
  }

  private compactBatch(retention: ChangeLogRetention, now: Date): Promise<CompactionResult> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await takeCompactionLock(tx))) return { removed: 0 };
      await tx.$executeRaw`DELETE FROM write_fences WHERE ctid IN (
        SELECT ctid FROM write_fences WHERE written_at < now() - interval '5 minutes' LIMIT ${FENCE_PRUNE_BATCH})`;
      const newest = await tx.change.findFirst({ orderBy: { resourceVersion: 'desc' }, select: { resourceVersion: true } });
      if (!newest) return { removed: 0 };
      const beyondCount = await tx.change.findFirst({
        orderBy: { resourceVersion: 'desc' },
        skip: retention.count,
        select: { resourceVersion: true },
      });
      const tooOld = await tx.change.findFirst({
        where: { changedAt: { lt: retention.since } },
        orderBy: { resourceVersion: 'desc' },
        select: { resourceVersion: true },
      });
      const candidates = [beyondCount, tooOld].filter((c) => c !== null).map((c) => c.resourceVersion);
      if (candidates.length === 0) return { removed: 0 };
      let through = candidates.reduce((a, b) => (a > b ? a : b));
      if (through >= newest.resourceVersion) through = newest.resourceVersion - 1n;
      const [gone] = await tx.$queryRaw<{ removed: bigint; newest: bigint | null }[]>`
        WITH gone AS (
          DELETE FROM change_log WHERE resource_version IN (
            SELECT resource_version FROM change_log WHERE resource_version <= ${through}
            ORDER BY resource_version LIMIT ${COMPACTION_BATCH})
          RETURNING resource_version)
        SELECT count(*) AS removed, max(resource_version) AS newest FROM gone`;
      const removed = Number(gone.removed);
      if (removed === 0) return { removed: 0 };
      // a full batch may have left older changes up to `through`: the horizon covers what is gone
      if (removed === COMPACTION_BATCH) through = gone.newest as bigint;
      await tx.changeLogCompaction.updateMany({
        where: { compactedThrough: { lt: through } },
        data: { compactedThrough: through, compactedAt: now },
      });
      return { removed, compactedThrough: through };
    });
  }

  /**
   * Deletes the objects of a kind last written before `writtenBefore` (an Event's time-to-live, as etcd's lease on
   * it expires): each deletion is a change like any other, which watchers see as DELETED. Answers how many went.
   * A batch at a time, each under the compaction lock (one instance expires at a time) and the resourceVersion lock,
   * taken before any row lock as every writer takes it (a writer holding it may be waiting for one of these rows).
   */
  async expire(key: StorageKey, writtenBefore: Date): Promise<number> {
    let removed = 0;
    for (;;) {
      const batch = await this.prisma.$transaction(async (tx) => {
        if (!(await takeCompactionLock(tx))) return 0;
        await tx.$queryRaw`SELECT 1 FROM pg_advisory_xact_lock(7365, 1)`;
        return tx.$executeRaw`
          DELETE FROM objects WHERE (api_group, resource, namespace, name) IN (
            SELECT api_group, resource, namespace, name FROM objects
            WHERE api_group = ${key.group} AND resource = ${key.resource} AND updated_at < ${writtenBefore}
            LIMIT ${EXPIRY_BATCH})`;
      });
      removed += batch;
      if (batch < EXPIRY_BATCH) return removed;
    }
  }
}
