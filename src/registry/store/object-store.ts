import { Inject, Injectable } from '@nestjs/common';
import { Pool, QueryResultRow } from 'pg';
import { PG_POOL } from '../../storage/database/database.tokens';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { holdsNul, SqlCondition } from './sql-params';
import { Path } from '../table/table-column';
import { ListKey } from './continue-token';
import { cursorStatements, ListRange, listStatement, StorageKey } from './list-statement';
import { ListCursor, ListSnapshot, OutputItem, outputItem, OutputRow } from './list-cursor';
import { GroupCommit } from './group-commit';
import { GroupRead, ReadForm } from './group-read';

export type { StorageKey } from './list-statement';

export interface ObjectKey extends StorageKey {
  namespace: string;
  name: string;
}

export interface ListResult<Item = KubeObject> extends ListSnapshot {
  items: Item[];
  /** the key of the last item, when more objects follow it */
  continueAfter?: ListKey;
}

/** A list read for output: each item's resourceVersion and its stored body as JSON text, unparsed (see OutputItem). */
export type OutputListResult = ListResult<OutputItem>;

interface Row {
  resource_version: string;
  body: KubeObject;
}

/** The body as stored: the resourceVersion lives in its column and the selfLink is built on output. */
function storedBody(object: KubeObject): string {
  const { resourceVersion: _rv, selfLink: _link, ...metadata } = object.metadata;
  return JSON.stringify({ ...object, metadata });
}

/** A row just read, its body parsed for this reader alone: the body itself is given its resourceVersion. */
function readObject(row: Row): KubeObject {
  row.body.metadata.resourceVersion = row.resource_version;
  return row.body;
}

function withVersion(row: Row): KubeObject {
  return { ...row.body, metadata: { ...row.body.metadata, resourceVersion: row.resource_version } };
}

/**
 * Reads and writes rows of the `objects` table. Writes are compare-and-swap on the resourceVersion column; the
 * database triggers assign new resourceVersions and write the change log. Writes go through the instance's group
 * commit (`pgkube_write_batch`), each answered with the resourceVersion it wrote or none.
 */
@Injectable()
export class ObjectStore {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly writes: GroupCommit,
    private readonly reads: GroupRead,
  ) {}

  /** The object of a key; undefined when there is none (as for a key with a NUL, which no stored object can have). */
  async get(key: ObjectKey): Promise<KubeObject | undefined> {
    const row = await this.readRow<Row>(key, 'object');
    return row && readObject(row);
  }

  /** The same object for a response: its body as JSON text, in the parts an OutputItem holds. */
  async getForOutput(key: ObjectKey): Promise<OutputItem | undefined> {
    const row = await this.readRow<OutputRow>(key, 'output');
    return row && outputItem(row);
  }

  private async readRow<R extends QueryResultRow>(key: ObjectKey, form: ReadForm): Promise<R | undefined> {
    if (holdsNul(key.namespace) || holdsNul(key.name)) return undefined;
    return this.reads.get<R>(form, key);
  }

  /** Inserts a new object; undefined when an object of that name exists. */
  async create(key: StorageKey, object: KubeObject): Promise<KubeObject | undefined> {
    const version = await this.writes.run({ write: 'create', key, body: storedBody(object) });
    return version === undefined ? undefined : withVersion({ resource_version: version, body: object });
  }

  /**
   * Replaces the object if it still has `expectedVersion`; undefined when it changed or went away meanwhile (or the
   * write was identical to the stored object, which the trigger skips).
   */
  async update(key: ObjectKey, expectedVersion: string, object: KubeObject): Promise<KubeObject | undefined> {
    const version = await this.writes.run({ write: 'update', key, expectedVersion, body: storedBody(object) });
    return version === undefined ? undefined : withVersion({ resource_version: version, body: object });
  }

  /** Removes the object if it still has `expectedVersion`; false when it changed or went away meanwhile. */
  async delete(key: ObjectKey, expectedVersion: string): Promise<boolean> {
    return (await this.writes.run({ write: 'delete', key, expectedVersion })) !== undefined;
  }

  /**
   * The objects of a kind, optionally in one namespace and filtered by conditions, sorted by namespace and name,
   * with the resourceVersion of the snapshot they were read at (one statement, so one snapshot); `range` reads a
   * page, or the state at a past resourceVersion.
   */
  async list(key: StorageKey, namespace: string | undefined, conditions: readonly SqlCondition[] = [], range: ListRange = {}): Promise<ListResult> {
    const { rows } = await this.pool.query<ListRow<Row>>(listStatement(key, namespace, conditions, 'objects', range));
    return listResult(rows, range, readObject);
  }

  /**
   * The same list for a response: bodies as JSON text, which the response carries mostly as it is, instead of the
   * server parsing every body only to serialize it again.
   */
  async listForOutput(
    key: StorageKey,
    namespace: string | undefined,
    conditions: readonly SqlCondition[],
    range: ListRange = {},
    projection?: readonly Path[],
  ): Promise<OutputListResult> {
    const { rows } = await this.pool.query<ListRow<OutputRow>>(listStatement(key, namespace, conditions, 'output', range, projection));
    return listResult(rows, range, outputItem);
  }

  /**
   * The same list (never a page) read through a cursor, for a response written as the rows arrive: the server holds
   * one batch of rows at a time instead of the whole list. The caller must close the cursor.
   */
  openListForOutput(
    key: StorageKey,
    namespace: string | undefined,
    conditions: readonly SqlCondition[],
    range: ListRange = {},
    projection?: readonly Path[],
  ): Promise<ListCursor> {
    return ListCursor.open(this.pool, cursorStatements(key, namespace, conditions, range, projection), range.at);
  }
}

/** A row of a list statement: the snapshot's columns, and the object's (all null when no object matched). */
type ListRow<Columns> = ListKey &
  Columns & {
    newest_version: string;
    compacted_through: string;
  };

function listResult<Columns extends { resource_version: string }, Item>(
  rows: ListRow<Columns>[],
  range: ListRange,
  item: (row: Columns) => Item,
): ListResult<Item> {
  const { newest_version: newest, compacted_through: compactedThrough } = rows[0];
  const found = rows.filter((r) => r.resource_version !== null);
  const page = range.limit === undefined ? found : found.slice(0, range.limit);
  const last = page[page.length - 1];
  return {
    resourceVersion: range.at === undefined ? newest : range.at.toString(),
    newestVersion: BigInt(newest),
    compactedThrough: BigInt(compactedThrough),
    items: page.map(item),
    continueAfter: found.length > page.length ? { namespace: last.namespace, name: last.name } : undefined,
  };
}
