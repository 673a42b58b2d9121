import { Inject, Injectable, Logger } from '@nestjs/common';
import { Pool, QueryConfig } from 'pg';
import { PG_POOL } from '../database/database.tokens';
import { resolveLostCommit } from '../database/commit-resolution';
import { databaseOutageCause, isDatabaseUnavailable, WriteNotCommitted, WriteOutcomeUnknown } from '../database/database-errors';
import { retryWhileUnavailable } from '../database/outage-retry';
import { checkOut, giveBack, replicationWaitCut } from '../database/write-probe';
import { ServerMetrics } from '../../metrics/server-metrics';
import { StorageKey } from './object-key';
import { Outcome, StatementBatcher } from './statement-batcher';

/** How long a write transaction may take before its COMMIT is sent; past it, it is rolled back. */
const WRITE_TIMEOUT_MS = 5000;
/** How long a write's answer waits for its outcome once COMMIT is sent (the commit, or learning what became of it). */
const OUTCOME_BOUND_MS = 10_000;
/** How long a write that certainly did not commit is tried again while the database is unreachable (a failover). */
const RETRY_BUDGET_MS = 5000;

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
  private readonly logger = new Logger('Storage');
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
      return (await retryWhileUnavailable(RETRY_BUDGET_MS, () => this.commit(batch))).map((version) => ({ value: version ?? undefined }));
    } catch (error) {
      if (batch.length === 1 || isDatabaseUnavailable(error) || error instanceof WriteOutcomeUnknown) throw error;
      const outcomes: Outcome<string | undefined>[] = [];
      for (const write of batch) {
        outcomes.push(await this.commit([write]).then(([version]) => ({ value: version ?? undefined }), (error: unknown) => ({ error })));
      }
      return outcomes;
    }
  }

  /**
   * One transaction: the batch's statement, which also takes the transaction's id, then COMMIT. Until COMMIT is sent
   * the transaction is bounded by WRITE_TIMEOUT_MS (past it the connection is closed, which rolls it back); a COMMIT
   * that meets a lost connection, waits past OUTCOME_BOUND_MS, or stops waiting for the synchronous standby is
   * resolved by asking the primary about the transaction id (resolveLostCommit): the versions if it committed,
   * WriteNotCommitted if it did not, WriteOutcomeUnknown if that could not be learned within the bound.
   */
  private async commit(batch: RowWrite[]): Promise<(string | null)[]> {
    const client = await checkOut(this.pool);
    let closed = false;
    const close = () => {
      closed = true;
      void client.end().catch(() => undefined);
    };
    let timer = setTimeout(close, WRITE_TIMEOUT_MS);
    let written: { txid: string; versions: (string | null)[] };
    try {
      await client.query('BEGIN');
      ({ rows: [written] } = await client.query<typeof written>(this.statement(batch)));
    } catch (error) {
      clearTimeout(timer);
      const broken = closed || isDatabaseUnavailable(error);
      if (!broken) await client.query('ROLLBACK').catch(() => undefined);
      giveBack(client, broken);
      if (closed) throw new WriteNotCommitted(`no answer within ${WRITE_TIMEOUT_MS} ms before COMMIT: rolled back`);
      throw error;
    }
    clearTimeout(timer);
    const sentAt = Date.now();
    let lost: string | undefined;
    const onNotice = (notice: { message?: string }) => {
      if (replicationWaitCut(notice)) lost = notice.message;
    };
    client.on('notice', onNotice);
    timer = setTimeout(close, OUTCOME_BOUND_MS);
    try {
      await client.query('COMMIT');
    } catch (error) {
      if (!closed && !isDatabaseUnavailable(error)) throw error;
      lost = closed ? `COMMIT unanswered for ${OUTCOME_BOUND_MS} ms` : databaseOutageCause(error);
    } finally {
      clearTimeout(timer);
      client.off('notice', onNotice);
      giveBack(client, lost !== undefined);
    }
    if (lost === undefined) return written.versions;
    const changeVersions = batch.flatMap((w, i) => (w.write !== 'delete' && written.versions[i] !== null ? [written.versions[i] as string] : []));
    const outcome = await resolveLostCommit(this.pool, { txid: written.txid, changeVersions }, sentAt + OUTCOME_BOUND_MS);
    this.logger.warn({ message: 'a write\'s COMMIT got no answer', cause: lost, txid: written.txid, outcome });
    if (outcome === 'committed') return written.versions;
    if (outcome === 'not-committed') throw new WriteNotCommitted(lost as string);
    throw new WriteOutcomeUnknown(lost as string);
  }

  private statement(batch: RowWrite[]): QueryConfig {
    return {
      name: 'objects-write-batch',
      text: 'SELECT txid_current()::text AS txid, pgkube_write_batch($1, $2, $3, $4, $5, $6, $7) AS versions',
      values: [
        batch.map((w) => w.write),
        batch.map((w) => w.key.group),
        batch.map((w) => w.key.resource),
        batch.map((w) => w.key.namespace ?? null),
        batch.map((w) => w.key.name ?? null),
        batch.map((w) => w.expectedVersion ?? null),
        `[${batch.map((w) => w.body ?? 'null').join(',')}]`,
      ],
    };
  }
}
