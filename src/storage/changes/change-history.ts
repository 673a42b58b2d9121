import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from '../database/database.tokens';
import { ALL_RESOURCES, Change, CHANGE_COLUMNS, ChangeRow, resourceKey, toChange } from './change';
import { StatusError } from '../../apimachinery/errors/status-error';
import { EncryptionAtRest } from '../encryption/encryption-at-rest';
import { DatabaseHistory } from '../database/database-history';

/** A change read without its objects (see ChangeHistory.after). */
export type BodilessChange = Omit<Change, 'object'> & { object: null };

export interface History {
  /** every change up to this resourceVersion may have been compacted away */
  compactedThrough: bigint;
  changes: Change[];
}

/**
 * Reads the change log: the newest position, pages of changes after a position, and history for a watch start. The
 * objects of a change are stored as `objects` stores them, so they pass through encryption at rest as they are read.
 */
@Injectable()
export class ChangeHistory {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly encryption: EncryptionAtRest,
    private readonly databaseHistory: DatabaseHistory,
  ) {}

  /**
   * A change as read, its objects' values opened (a change read with its objects' metadata alone holds no values to
   * open). One that cannot be opened is delivered with the error, for its watchers to end with, rather than stopping
   * the feed of every resource.
   */
  private toChange(row: ChangeRow, whole = true): Change {
    const change = toChange(row);
    if (!whole) return change;
    try {
      if (change.object) this.encryption.open(change, change.object);
      if (change.previous) this.encryption.open(change, change.previous);
    } catch (error) {
      if (!(error instanceof StatusError)) throw error;
      change.unreadable = error;
    }
    return change;
  }

  async newest(): Promise<bigint> {
    return (await this.state()).newest;
  }

  /** The newest committed change and the compaction horizon, read together. */
  async state(): Promise<{ newest: bigint; compactedThrough: bigint }> {
    const { rows } = await this.pool.query<{ newest: string; compacted_through: string }>(
      `SELECT (SELECT COALESCE(MAX(resource_version), 0) FROM change_log)::text AS newest,
              (SELECT compacted_through FROM change_log_compaction)::text AS compacted_through`,
    );
    return { newest: BigInt(rows[0].newest), compactedThrough: BigInt(rows[0].compacted_through) };
  }

  /**
   * The next changes after `after`, in resourceVersion order, with the database's history (database_history's newest
   * epoch) read in the same snapshot: a change of a history adopted since is never taken for the next of the one
   * before. The changes of the resources in `whole` (keys of `resourceKey`, or ALL_RESOURCES) carry their objects;
   * of the others, those in `metadata` carry only the objects' metadata without the managed fields (`metadataOnly`),
   * and the rest none (`object` null), to spare reading and parsing what no subscriber looks at.
   */
  async after(after: bigint, limit: number, whole: string[], metadata: string[] = []): Promise<{ epoch: number; changes: (Change | BodilessChange)[] }> {
    const wanted = (keys: string) => `($5 = ANY(${keys}) OR c.api_group || '/' || c.resource = ANY(${keys}))`;
    const body = (column: string) =>
      `CASE WHEN ${wanted('$3')} THEN c.${column}
            WHEN ${wanted('$4')} THEN jsonb_build_object('metadata', (c.${column} -> 'metadata') - 'managedFields') END AS ${column}`;
    const { rows } = await this.pool.query<ChangeRow & { epoch: number }>({
      name: 'change-log-after',
      text: `SELECT h.epoch, c.resource_version, c.event_type, c.api_group, c.resource, c.namespace, c.name, ${body('object')}, ${body('previous_object')}
             FROM (SELECT MAX(epoch) AS epoch FROM database_history) h
             LEFT JOIN LATERAL (
               SELECT * FROM change_log WHERE resource_version > $1 ORDER BY resource_version LIMIT $2
             ) c ON true
             ORDER BY c.resource_version`,
      values: [after.toString(), limit, whole, metadata, ALL_RESOURCES],
    });
    const readWhole = (row: ChangeRow) => whole.includes(ALL_RESOURCES) || whole.includes(resourceKey(row.api_group, row.resource));
    const changes = rows
      .filter((row) => row.resource_version !== null)
      .map((row) => {
        const change = this.toChange(row, readWhole(row));
        if (change.object && !readWhole(row)) change.metadataOnly = true;
        return change;
      });
    this.databaseHistory.saw(changes.at(-1)?.resourceVersion);
    return { epoch: rows[0].epoch, changes };
  }

  /** The objects of the given changes (those still in the log). */
  async bodies(versions: bigint[]): Promise<Map<bigint, Pick<Change, 'object' | 'previous' | 'unreadable'>>> {
    const { rows } = await this.pool.query<ChangeRow>({
      name: 'change-log-bodies',
      text: `SELECT ${CHANGE_COLUMNS} FROM change_log WHERE resource_version = ANY($1)`,
      values: [versions.map(String)],
    });
    return new Map(
      rows.map((row) => {
        const { resourceVersion, object, previous, unreadable } = this.toChange(row);
        return [resourceVersion, { object, previous, ...(unreadable ? { unreadable } : {}) }];
      }),
    );
  }

  /**
   * The changes of one resource in (from, through], with the compaction horizon read in the same snapshot (one
   * statement), so a caller can tell whether the history it got is complete.
   */
  async between(group: string, resource: string, from: bigint, through: bigint): Promise<History> {
    const { rows } = await this.pool.query<ChangeRow & { compacted_through: string }>({
      name: 'change-log-between',
      text: `SELECT horizon.compacted_through::text, c.*
             FROM (SELECT compacted_through FROM change_log_compaction) horizon
             LEFT JOIN LATERAL (
               SELECT ${CHANGE_COLUMNS} FROM change_log
               WHERE api_group = $1 AND resource = $2 AND resource_version > $3 AND resource_version <= $4
               ORDER BY resource_version
             ) c ON true`,
      values: [group, resource, from.toString(), through.toString()],
    });
    return {
      compactedThrough: BigInt(rows[0].compacted_through),
      changes: rows.filter((r) => r.resource_version !== null).map((row) => this.toChange(row)),
    };
  }
}
