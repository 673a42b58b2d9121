import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Pool, QueryConfig } from 'pg';
import { PG_POOL } from '../database/database.tokens';
import { resolveLostWrite } from '../database/commit-resolution';
import { DatabaseHistory } from '../database/database-history';
import {
  databaseOutageCause,
  HISTORY_NOT_ADOPTED,
  isDatabaseUnavailable,
  statementRolledBack,
  WriteNotCommitted,
  WriteOutcomeUnknown,
} from '../database/database-errors';
import { retryWhileUnavailable } from '../database/outage-retry';
import { onBoundedConnection, replicationWaitCut } from '../database/write-probe';
import { ServerMetrics } from '../../metrics/server-metrics';
import { StorageKey } from './object-key';
import { Outcome, StatementBatcher } from './statement-batcher';

/** How long a write batch's statement may go unanswered before its outcome is asked for (the fence). */
const WRITE_ANSWER_MS = 5000;
/** How long asking for a lost write's outcome may take: a write's answer comes within both bounds together. */
const RESOLUTION_MS = 5000;
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
 * say: an error whose SQLSTATE says it rolled back) committed nothing: its writes go again one at a time, so each
 * gets its own answer or error. A batch whose outcome is not known (a lost connection, no answer) is every write's
 * error, never committed again. See the README, "resourceVersions and their order" and "When the database is lost or
 * fails over".
 */
@Injectable()
export class GroupCommit {
  private readonly logger = new Logger('Storage');
  private readonly batcher: StatementBatcher<RowWrite, string | undefined>;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly history: DatabaseHistory,
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
      const versions = await retryWhileUnavailable(RETRY_BUDGET_MS, () => this.commit(batch).catch((error) => this.afterAdopting(batch, error)));
      return versions.map((version) => ({ value: version ?? undefined }));
    } catch (error) {
      if (batch.length === 1 || isDatabaseUnavailable(error) || !statementRolledBack(error)) throw error;
      const outcomes: Outcome<string | undefined>[] = [];
      for (const write of batch) {
        outcomes.push(await this.commit([write]).then(([version]) => ({ value: version ?? undefined }), (error: unknown) => ({ error })));
      }
      return outcomes;
    }
  }

  /**
   * A write refused on a timeline not adopted yet (a promoted standby) committed nothing: the history is checked and
   * adopted, and the write goes again at once (every write after a failover meets this first; a wait here would be
   * time unwritable). Any other error, or an adoption that fails, goes on to be retried as it is.
   */
  private async afterAdopting(batch: RowWrite[], error: unknown): Promise<(string | null)[]> {
    if ((error as { code?: unknown })?.code !== HISTORY_NOT_ADOPTED) throw error;
    await this.history.check().catch(() => {
      throw error;
    });
    return this.commit(batch);
  }

  /**
   * One autocommit statement, carrying a fresh fence token (migration 0021). An error PostgreSQL answered with that
   * rolled the statement back is the batch's error; a connection lost before or after any answer, no answer within
   * WRITE_ANSWER_MS, a warning that the commit stopped waiting for the synchronous standby, or any other error once
   * the statement was sent leaves the outcome to the fence (resolveLostWrite): the versions if it committed,
   * WriteNotCommitted if it did not, WriteOutcomeUnknown if that could not be learned within RESOLUTION_MS.
   */
  private async commit(batch: RowWrite[]): Promise<(string | null)[]> {
    const fence = randomUUID();
    let sent = false;
    let lost: string;
    try {
      const { versions, cut } = await onBoundedConnection(this.pool, WRITE_ANSWER_MS, async (client) => {
        let cut = false;
        const onNotice = (notice: { code?: string }) => (cut ||= replicationWaitCut(notice));
        client.on('notice', onNotice);
        sent = true;
        try {
          const { rows } = await client.query<{ versions: (string | null)[] }>(this.statement(batch, fence));
          return { versions: rows[0].versions, cut };
        } finally {
          client.off('notice', onNotice);
        }
      });
      if (!cut) return this.seen(versions);
      lost = 'the commit stopped waiting for the synchronous standby';
    } catch (error) {
      if (statementRolledBack(error)) throw error;
      const cause = databaseOutageCause(error) ?? (error as Error)?.message ?? String(error);
      if (!sent) throw isDatabaseUnavailable(error) ? error : new WriteNotCommitted(cause);
      lost = cause;
    }
    const resolved = await resolveLostWrite(this.pool, fence, Date.now() + RESOLUTION_MS);
    this.logger.warn({ message: 'a write got no answer', cause: lost, fence, outcome: resolved.outcome });
    if (resolved.outcome === 'committed') return this.seen(resolved.versions);
    if (resolved.outcome === 'not-committed') throw new WriteNotCommitted(lost);
    throw new WriteOutcomeUnknown(lost);
  }

  private seen(versions: (string | null)[]): (string | null)[] {
    for (const version of versions) this.history.saw(version);
    return versions;
  }

  private statement(batch: RowWrite[], fence: string): QueryConfig {
    return {
      name: 'objects-write-batch',
      text: 'SELECT pgkube_write_batch($1, $2, $3, $4, $5, $6, $7, $8) AS versions',
      values: [
        batch.map((w) => w.write),
        batch.map((w) => w.key.group),
        batch.map((w) => w.key.resource),
        batch.map((w) => w.key.namespace ?? null),
        batch.map((w) => w.key.name ?? null),
        batch.map((w) => w.expectedVersion ?? null),
        `[${batch.map((w) => w.body ?? 'null').join(',')}]`,
        fence,
      ],
    };
  }
}
