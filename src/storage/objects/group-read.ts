import { Inject, Injectable } from '@nestjs/common';
import { Pool, QueryResultRow } from 'pg';
import { PG_POOL } from '../database/database.tokens';
import { ServerMetrics } from '../../metrics/server-metrics';
import { ObjectKey } from './object-key';
import { outputColumns, ReadForm } from './read-form';
import { Outcome, StatementBatcher } from './statement-batcher';
import { retryWhileUnavailable } from '../database/outage-retry';

/**
 * What a read of one object's row returns besides its resourceVersion: the body parsed, or its output parts (none
 * when the reader holds the item of the row's resourceVersion, `known`: see OutputCache).
 */
const COLUMNS: Record<ReadForm, (known: string) => string> = {
  object: () => 'o.body',
  output: (known) => outputColumns('o.body', false, `o.resource_version = ${known}`),
};

/** A read of one object: its key, and the resourceVersion of the item the reader holds of it (output form only). */
export interface KeyRead {
  key: ObjectKey;
  known?: string;
}

/**
 * Statements in flight per form: the reads that arrive meanwhile go together in the next. Two keep PostgreSQL busy
 * while the server answers the rows of the other.
 */
const LANES = 2;

/** Injection token of the reads by key through the read pool (READ_POOL): for those that may be stale. */
export const STALE_READS = Symbol('STALE_READS');

/** How long a read is tried again while the database is unreachable (a restart, a failover). */
export const READ_RETRY_BUDGET_MS = 5000;

/**
 * Reads of single objects by key, gathered as the writes are (StatementBatcher): the reads that arrive while the
 * lanes are busy go together in one statement, which looks their keys up with one index probe each. Every read of a
 * batch arrived before its statement started, so each sees every write committed before the read was asked for:
 * batching keeps a read as current as a statement of its own.
 */
@Injectable()
export class GroupRead {
  private readonly batchers: Record<ReadForm, StatementBatcher<KeyRead, QueryResultRow | undefined>>;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    metrics: ServerMetrics,
  ) {
    const batcher = (form: ReadForm) =>
      new StatementBatcher<KeyRead, QueryResultRow | undefined>(LANES, (reads) => retryWhileUnavailable(READ_RETRY_BUDGET_MS, () => this.read(form, reads)), (size) => metrics.readBatchSize.observe(size));
    this.batchers = { object: batcher('object'), output: batcher('output') };
  }

  /**
   * The row of a key (its resource_version and the form's columns); undefined when there is none. With `known`, the
   * output columns are null if the row still has that resourceVersion.
   */
  get<R extends QueryResultRow>(form: ReadForm, key: ObjectKey, known?: string): Promise<R | undefined> {
    return this.batchers[form].run({ key, known }) as Promise<R | undefined>;
  }

  private async read(form: ReadForm, reads: KeyRead[]): Promise<Outcome<QueryResultRow | undefined>[]> {
    if (reads.length === 1) {
      const [{ key, known }] = reads;
      const { rows } = await this.pool.query({
        name: `objects-get-${form}`,
        text: `SELECT o.resource_version, ${COLUMNS[form]('$5::bigint')} FROM objects o
               WHERE o.api_group = $1 AND o.resource = $2 AND o.namespace = $3 AND o.name = $4`,
        values: [key.group, key.resource, key.namespace, key.name, ...(form === 'output' ? [known ?? null] : [])],
      });
      return [{ value: rows[0] }];
    }
    const keys = reads.map((read) => read.key);
    const { rows } = await this.pool.query<QueryResultRow & { i: number }>({
      name: `objects-get-${form}-batch`,
      text: `SELECT k.i::int AS i, o.resource_version, ${COLUMNS[form]('k.known')}
             FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]${form === 'output' ? ', $5::bigint[]' : ''})
                  WITH ORDINALITY AS k(api_group, resource, namespace, name, ${form === 'output' ? 'known, ' : ''}i)
             JOIN objects o ON o.api_group = k.api_group AND o.resource = k.resource AND o.namespace = k.namespace AND o.name = k.name`,
      values: [
        keys.map((k) => k.group),
        keys.map((k) => k.resource),
        keys.map((k) => k.namespace),
        keys.map((k) => k.name),
        ...(form === 'output' ? [reads.map((read) => read.known ?? null)] : []),
      ],
    });
    const found = new Array<QueryResultRow | undefined>(keys.length);
    for (const row of rows) found[row.i - 1] = row;
    return keys.map((_, i) => ({ value: found[i] }));
  }
}
