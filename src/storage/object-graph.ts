import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { KubeObject, ObjectMeta } from '../apimachinery/meta/kube-object';
import { PG_POOL } from './database/database.tokens';

/**
 * An object as the garbage collector sees it: its table coordinates and its metadata, all the collector reads (it
 * writes through the registry, which reads the whole object), so values encrypted at rest are never opened here.
 */
export interface StoredRow {
  group: string;
  resource: string;
  object: KubeObject;
}

interface Row {
  api_group: string;
  resource: string;
  resource_version: string;
  metadata: ObjectMeta;
}

const toStored = (row: Row): StoredRow => ({
  group: row.api_group,
  resource: row.resource,
  object: { metadata: { ...row.metadata, resourceVersion: row.resource_version } },
});

const COLUMNS = `api_group, resource, resource_version, body -> 'metadata' AS metadata`;

/** The ownership queries of the garbage collector, over the objects table (indexes in migrations 0004 and 0013). */
@Injectable()
export class ObjectGraph {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** The objects that name `uid` among their owners (the first condition is the index's: see migration 0013). */
  async dependentsOf(uid: string): Promise<StoredRow[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM objects
       WHERE body -> 'metadata' ? 'ownerReferences' AND (body -> 'metadata' -> 'ownerReferences') @> $1::jsonb`,
      [JSON.stringify([{ uid }])],
    );
    return rows.map(toStored);
  }

  async byUid(uid: string): Promise<StoredRow | undefined> {
    const { rows } = await this.pool.query<Row>(`SELECT ${COLUMNS} FROM objects WHERE uid = $1`, [uid]);
    return rows[0] && toStored(rows[0]);
  }

  /** The uids among `uids` that belong to a stored object. */
  async existing(uids: string[]): Promise<Set<string>> {
    const { rows } = await this.pool.query<{ uid: string }>('SELECT uid FROM objects WHERE uid = ANY($1)', [uids]);
    return new Set(rows.map((r) => r.uid));
  }

  /** Objects marked for deletion that still carry any of `finalizers`. */
  async terminatingWithAny(finalizers: string[]): Promise<StoredRow[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM objects
       WHERE body -> 'metadata' ? 'deletionTimestamp' AND (body -> 'metadata' -> 'finalizers') ?| $1`,
      [finalizers],
    );
    return rows.map(toStored);
  }

  /** Objects with at least one owner uid that no stored object has. */
  async withMissingOwners(): Promise<StoredRow[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM objects d
       WHERE d.body -> 'metadata' ? 'ownerReferences'
         AND EXISTS (SELECT 1 FROM jsonb_array_elements(d.body -> 'metadata' -> 'ownerReferences') AS ref
                     WHERE NOT EXISTS (SELECT 1 FROM objects o WHERE o.uid = ref ->> 'uid'))`,
    );
    return rows.map(toStored);
  }
}
