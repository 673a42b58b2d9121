import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from '../../database/database.tokens';
import { isDatabaseUnavailable } from '../../database/database-errors';
import { ServerMetrics } from '../../metrics/server-metrics';
import { StorageKey } from './list-statement';

/** One write to a row of `objects`, as `pgkube_write_batch` (migration 0009) takes it. */
export interface RowWrite {
  write: 'create' | 'update' | 'delete';
  key: StorageKey & { namespace?: string; name?: string };
  /** an update's or delete's compare-and-swap: the resourceVersion the row must still have */
  expectedVersion?: string;
  /** the body to store, as JSON text (create and update) */
  body?: string;
}

interface QueuedWrite extends RowWrite {
  resolve(resourceVersion: string | undefined): void;
  reject(error: unknown): void;
}

/**
 * Group commit of the store's writes (etcd's batched puts): one write statement in flight per instance; the writes
 * that arrive meanwhile wait, and when it ends they go together as the next one, under one commit. A write that
 * finds nothing in flight goes at once, alone, in the same statement form, so a lone client waits no longer.
 *
 * The statement, `pgkube_write_batch`, runs the writes one after the other and answers each one's resourceVersion,
 * or none where it wrote nothing (name taken, compare-and-swap lost, identical update, nothing to delete): those
 * outcomes never disturb the other writes. A batch whose statement fails outright (a value PostgreSQL cannot store,
 * say) committed nothing: its writes go again one at a time, so each gets its own answer or error. A connection lost
 * is every write's error. See the README, "resourceVersions and their order".
 */
@Injectable()
export class GroupCommit {
  private waiting: QueuedWrite[] = [];
  private busy = false;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly metrics: ServerMetrics,
  ) {}

  /** Runs one write, alone or with others in one transaction: the resourceVersion it wrote, once committed. */
  run(write: RowWrite): Promise<string | undefined> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ ...write, resolve, reject });
      if (!this.busy) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.busy = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      this.metrics.writeBatchSize.observe(batch.length);
      try {
        this.answer(batch, await this.commit(batch));
      } catch (error) {
        if (batch.length === 1 || isDatabaseUnavailable(error)) for (const write of batch) write.reject(error);
        else for (const write of batch) await this.commit([write]).then((versions) => this.answer([write], versions), write.reject);
      }
    }
    this.busy = false;
  }

  private answer(batch: QueuedWrite[], versions: (string | null)[]): void {
    batch.forEach((write, i) => write.resolve(versions[i] ?? undefined));
  }

  private async commit(batch: RowWrite[]): Promise<(string | null)[]> {
    const { rows } = await this.pool.query<{ versions: (string | null)[] }>({
      name: 'objects-write-batch',
      text: 'SELECT pgkube_write_batch($1, $2, $3, $4, $5, $6, $7) AS versions',
      values: [
        batch.map((w) => w.write),
        batch.map((w) => w.key.group),
        batch.map((w) => w.key.resource),
        batch.map((w) => w.key.namespace ?? null),
        batch.map((w) => w.key.name ?? null),
        batch.map((w) => w.expectedVersion ?? null),
        `[${batch.map((w) => w.body ?? 'null').join(',')}]`,
      ],
    });
    return rows[0].versions;
  }
}
