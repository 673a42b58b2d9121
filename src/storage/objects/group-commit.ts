import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from '../database/database.tokens';
import { isDatabaseUnavailable } from '../database/database-errors';
import { ServerMetrics } from '../../metrics/server-metrics';
import { StorageKey } from './object-key';
import { Outcome, StatementBatcher } from './statement-batcher';

/** One write to a row of `objects`, as `pgkube_write_batch` (migration 0009) takes it. */
export interface RowWrite {
  write: 'create' | 'update' | 'delete';
  key: StorageKey & { namespace?: string; name?: string };
  /** an update's or delete's compare-and-swap: the resourceVersion the row must still have */
  expectedVersion?: string;
  /** the body to store, as JSON text (create and update) */
  body?: string;
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
  private readonly batcher: StatementBatcher<RowWrite, string | undefined>;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    metrics: ServerMetrics,
  ) {
    this.batcher = new StatementBatcher(1, (batch) => this.commitEach(batch), (size) => metrics.writeBatchSize.observe(size));
  }

  /** Runs one write, alone or with others in one transaction: the resourceVersion it wrote, once committed. */
  run(write: RowWrite): Promise<string | undefined> {
    return this.batcher.run(write);
  }

  private async commitEach(batch: RowWrite[]): Promise<Outcome<string | undefined>[]> {
    try {
      return (await this.commit(batch)).map((version) => ({ value: version ?? undefined }));
    } catch (error) {
      if (batch.length === 1 || isDatabaseUnavailable(error)) throw error;
      const outcomes: Outcome<string | undefined>[] = [];
      for (const write of batch) {
        outcomes.push(await this.commit([write]).then(([version]) => ({ value: version ?? undefined }), (error: unknown) => ({ error })));
      }
      return outcomes;
    }
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
