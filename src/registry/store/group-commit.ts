import { Inject, Injectable } from '@nestjs/common';
import { Pool, PoolClient, QueryConfig, QueryResult } from 'pg';
import { PG_POOL } from '../../database/database.tokens';
import { isDatabaseUnavailable } from '../../database/database-errors';
import { ServerMetrics } from '../../metrics/server-metrics';

interface QueuedWrite {
  query: QueryConfig;
  resolve(result: QueryResult): void;
  reject(error: unknown): void;
}

/**
 * Group commit of the store's writes (etcd's batched puts): one write transaction in flight per instance; the writes
 * that arrive meanwhile wait, and when it ends they go together as the next one, each as its own statement with its
 * own answer, under one commit. A write that finds nothing waiting goes at once, alone, as a single statement.
 *
 * Each statement reports its own outcome in its rows (a create that found the name taken, a compare-and-swap that
 * lost, an identical write: no row), so those never disturb the others. A statement that fails outright aborts the
 * transaction: it gets its error, and the others, of which nothing was committed, go again without it. A failed
 * commit, or a connection lost on the way, is every write's error. Answers are given only after the commit, so a
 * client never sees a resourceVersion that a reader could not. See the README, "resourceVersions and their order".
 */
@Injectable()
export class GroupCommit {
  private waiting: QueuedWrite[] = [];
  private busy = false;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly metrics: ServerMetrics,
  ) {}

  /** Runs one write statement, alone or with others in one transaction; its result once it is committed. */
  run<R extends QueryResult>(query: QueryConfig): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ query, resolve: resolve as (result: QueryResult) => void, reject });
      if (!this.busy) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.busy = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      this.metrics.writeBatchSize.observe(batch.length);
      const again = batch.length === 1 ? await this.alone(batch[0]) : await this.together(batch);
      this.waiting = [...again, ...this.waiting];
    }
    this.busy = false;
  }

  private async alone(write: QueuedWrite): Promise<QueuedWrite[]> {
    await this.pool.query(write.query).then(write.resolve, write.reject);
    return [];
  }

  /** One transaction for the batch; answers the writes it settled and returns those to go again. */
  private async together(batch: QueuedWrite[]): Promise<QueuedWrite[]> {
    let client: PoolClient | undefined;
    let lost: Error | undefined;
    try {
      client = await this.pool.connect();
      await client.query('BEGIN');
      const results: QueryResult[] = [];
      for (const write of batch) {
        try {
          results.push(await client.query(write.query));
        } catch (error) {
          if (isDatabaseUnavailable(error)) throw error;
          await client.query('ROLLBACK');
          write.reject(error);
          return batch.filter((other) => other !== write);
        }
      }
      await client.query('COMMIT');
      results.forEach((result, i) => batch[i].resolve(result));
      return [];
    } catch (error) {
      if (error instanceof Error && isDatabaseUnavailable(error)) lost = error;
      for (const write of batch) write.reject(error);
      return [];
    } finally {
      client?.release(lost);
    }
  }
}
