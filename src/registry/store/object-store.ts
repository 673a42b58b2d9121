import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from '../../database/database.tokens';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { holdsNul, SqlCondition, SqlParams } from './sql-params';
import { Path } from '../table/table-column';
import { projectedBody } from './projection-sql';

/** Where a kind's objects live: the (api_group, resource) pair of the `objects` table. */
export interface StorageKey {
  group: string;
  resource: string;
}

export interface ObjectKey extends StorageKey {
  namespace: string;
  name: string;
}

export interface ListResult {
  /** the newest committed resourceVersion visible to the same snapshot as the items */
  resourceVersion: string;
  items: KubeObject[];
}

/** A list read for output: each item's resourceVersion and its stored body as JSON text, unparsed. */
export interface OutputListResult {
  resourceVersion: string;
  items: { resourceVersion: string; body: string }[];
}

interface Row {
  resource_version: string;
  body: KubeObject;
}

/** The body as stored: the resourceVersion lives in its column and the selfLink is built on output. */
function storedBody(object: KubeObject): string {
  const { resourceVersion: _rv, selfLink: _link, ...metadata } = object.metadata;
  return JSON.stringify({ ...object, metadata });
}

function withVersion(row: Row): KubeObject {
  return { ...row.body, metadata: { ...row.body.metadata, resourceVersion: row.resource_version } };
}

/**
 * Reads and writes rows of the `objects` table. Writes are compare-and-swap on the resourceVersion column; the
 * database triggers assign new resourceVersions and write the change log.
 */
@Injectable()
export class ObjectStore {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** The object of a key; undefined when there is none (as for a key with a NUL, which no stored object can have). */
  async get(key: ObjectKey): Promise<KubeObject | undefined> {
    if (holdsNul(key.namespace) || holdsNul(key.name)) return undefined;
    const { rows } = await this.pool.query<Row>({
      name: 'objects-get',
      text: `SELECT resource_version, body FROM objects
             WHERE api_group = $1 AND resource = $2 AND namespace = $3 AND name = $4`,
      values: [key.group, key.resource, key.namespace, key.name],
    });
    return rows[0] && withVersion(rows[0]);
  }

  /** Inserts a new object; undefined when an object of that name exists. */
  async create(key: StorageKey, object: KubeObject): Promise<KubeObject | undefined> {
    const { rows } = await this.pool.query<{ resource_version: string }>({
      name: 'objects-create',
      text: `INSERT INTO objects (api_group, resource, body) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING RETURNING resource_version`,
      values: [key.group, key.resource, storedBody(object)],
    });
    return rows[0] && withVersion({ resource_version: rows[0].resource_version, body: object });
  }

  /**
   * Replaces the object if it still has `expectedVersion`; undefined when it changed or went away meanwhile (or the
   * write was identical to the stored object, which the trigger skips).
   */
  async update(key: ObjectKey, expectedVersion: string, object: KubeObject): Promise<KubeObject | undefined> {
    const { rows } = await this.pool.query<{ resource_version: string }>({
      name: 'objects-update',
      text: `UPDATE objects SET body = $5
             WHERE api_group = $1 AND resource = $2 AND namespace = $3 AND name = $4 AND resource_version = $6
             RETURNING resource_version`,
      values: [key.group, key.resource, key.namespace, key.name, storedBody(object), expectedVersion],
    });
    return rows[0] && withVersion({ resource_version: rows[0].resource_version, body: object });
  }

  /** Removes the object if it still has `expectedVersion`; false when it changed or went away meanwhile. */
  async delete(key: ObjectKey, expectedVersion: string): Promise<boolean> {
    const { rowCount } = await this.pool.query({
      name: 'objects-delete',
      text: `DELETE FROM objects
             WHERE api_group = $1 AND resource = $2 AND namespace = $3 AND name = $4 AND resource_version = $5`,
      values: [key.group, key.resource, key.namespace, key.name, expectedVersion],
    });
    return rowCount === 1;
  }

  /**
   * The objects of a kind, optionally in one namespace and filtered by conditions, sorted by namespace and name,
   * with the resourceVersion of the snapshot they were read at (one statement, so one snapshot).
   */
  async list(key: StorageKey, namespace: string | undefined, conditions: readonly SqlCondition[] = []): Promise<ListResult> {
    const { rows } = await this.pool.query<Row & { list_version: string }>(listStatement(key, namespace, conditions, 'objects'));
    return {
      resourceVersion: rows[0].list_version,
      items: rows.filter((r) => r.resource_version !== null).map(withVersion),
    };
  }

  /**
   * The same list for a response: bodies as JSON text, which the response carries mostly as it is, instead of the
   * server parsing every body only to serialize it again.
   */
  async listForOutput(
    key: StorageKey,
    namespace: string | undefined,
    conditions: readonly SqlCondition[],
    projection?: readonly Path[],
  ): Promise<OutputListResult> {
    const { rows } = await this.pool.query<{ list_version: string; resource_version: string; body: string }>(
      listStatement(key, namespace, conditions, 'output', projection),
    );
    return {
      resourceVersion: rows[0].list_version,
      items: rows.filter((r) => r.resource_version !== null).map((r) => ({ resourceVersion: r.resource_version, body: r.body })),
    };
  }
}

/** What a list reads of each object: its body parsed into an object, or for output as JSON text. */
const LIST_COLUMNS = {
  objects: () => 'resource_version, body',
  output: (params: SqlParams, projection?: readonly Path[]) =>
    `resource_version, ${projection ? projectedBody(projection, params) : 'body'}::text AS body`,
};

/** The statement of a list (exported so that a benchmark can EXPLAIN exactly what the server runs). */
export function listStatement(
  key: StorageKey,
  namespace: string | undefined,
  conditions: readonly SqlCondition[],
  form: keyof typeof LIST_COLUMNS,
  projection?: readonly Path[],
) {
  const params = new SqlParams();
  const where = [`api_group = ${params.add(key.group)}`, `resource = ${params.add(key.resource)}`];
  if (namespace !== undefined) where.push(`namespace = ${params.add(namespace)}`);
  for (const condition of conditions) where.push(`(${condition(params)})`);
  return {
    text: `SELECT snapshot.list_version, o.*
       FROM (SELECT COALESCE(MAX(resource_version), 0)::text AS list_version FROM change_log) snapshot
       LEFT JOIN LATERAL (
         SELECT ${LIST_COLUMNS[form](params, projection)} FROM objects WHERE ${where.join(' AND ')} ORDER BY namespace, name
       ) o ON true`,
    values: params.values,
  };
}
