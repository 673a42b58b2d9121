import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL, READ_POOL } from '../database/database.tokens';
import { DatabaseHistory } from '../database/database-history';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { holdsNul } from './sql-params';
import { ObjectKey, StorageKey } from './object-key';
import { ListQuery } from './list-query';
import { cursorStatements, listStatement } from './list-statement';
import { ListResult, listResult, ListRow } from './list-result';
import { CursorRow, ListCursor } from './list-cursor';
import { FormItem, FormRow, itemReader, OutputItem, outputItem, OutputRow, ReadForm } from './read-form';
import { CachedListRead, OutputCache } from './output-cache';
import { GroupCommit } from './group-commit';
import { GroupRead, READ_RETRY_BUDGET_MS, STALE_READS } from './group-read';
import { retryWhileUnavailable } from '../database/outage-retry';
import { EncryptionAtRest } from '../encryption/encryption-at-rest';

/** The body as stored: the resourceVersion lives in its column and the selfLink is built on output. */
function storedBody(object: KubeObject): string {
  const { resourceVersion: _rv, selfLink: _link, ...metadata } = object.metadata;
  return JSON.stringify({ ...object, metadata });
}

/**
 * Whether a list's items are read through the output cache: whole bodies only (a projection's item is a part of one,
 * and an item with its stored apiVersion another form of it, neither kept under the resourceVersion alone).
 */
const keepsItems = (query: ListQuery) => query.projection === undefined && !query.storedVersions;

/**
 * A list's name in the output cache: its kind and query but the version it is read at, so that the pages of a list
 * read again at a newer version find the rows they returned before (two lists with one name only tell each other's
 * rows: the cache answers a row only with an item of its own key).
 */
const listName = (key: StorageKey, { at: _at, ...query }: ListQuery) => JSON.stringify([key.group, key.resource, query]);

function withVersion(version: string, body: KubeObject): KubeObject {
  return { ...body, metadata: { ...body.metadata, resourceVersion: version } };
}

/**
 * Reads and writes rows of the `objects` table. Writes are compare-and-swap on the resourceVersion column; the
 * database triggers assign new resourceVersions and write the change log. Writes go through the instance's group
 * commit (`pgkube_write_batch`), each answered with the resourceVersion it wrote or none. Reads return each object
 * in a read form: parsed (`object`, the default), or as JSON text for a response (`output`, see OutputItem), which
 * the response carries mostly as it is instead of the server parsing every body only to serialize it again.
 * Bodies pass through encryption at rest both ways: sealed as they are written, opened as they are read.
 */
@Injectable()
export class ObjectStore {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(READ_POOL) private readonly readPool: Pool,
    private readonly writes: GroupCommit,
    private readonly reads: GroupRead,
    @Inject(STALE_READS) private readonly staleReads: GroupRead,
    private readonly encryption: EncryptionAtRest,
    private readonly history: DatabaseHistory,
    private readonly outputCache: OutputCache,
  ) {}

  /** The items read for output this instance keeps, for reads in the database's current history. */
  private get cache(): OutputCache {
    return this.outputCache.of(this.history.epoch);
  }

  /**
   * The object of a key; undefined when there is none (as for a key with a NUL, which no stored object can have).
   * `mayBeStale` (a GET with resourceVersion=0) reads it through the read pool, a streaming standby's when set.
   */
  async get<F extends ReadForm = 'object'>(key: ObjectKey, form: F = 'object' as F, mayBeStale = false): Promise<FormItem[F] | undefined> {
    if (holdsNul(key.namespace) || holdsNul(key.name)) return undefined;
    const reads = mayBeStale ? this.staleReads : this.reads;
    if (form === 'output') return (await this.getThroughCache(reads, key, mayBeStale)) as FormItem[F] | undefined;
    const row = await reads.get<FormRow[F]>(form, key);
    if (!mayBeStale) this.history.saw(row?.resource_version);
    return row && this.opened(key, form, itemReader(form)(row));
  }

  /**
   * An object for output: its row comes without its texts when it still has the resourceVersion of the item the
   * cache holds of its key (the statement compares them, so a row without texts always has that item).
   */
  private async getThroughCache(reads: GroupRead, key: ObjectKey, mayBeStale: boolean): Promise<OutputItem | undefined> {
    const held = this.cache.newestOf(key);
    const row = await reads.get<OutputRow>('output', key, held?.resourceVersion);
    if (!mayBeStale) this.history.saw(row?.resource_version);
    if (!row) return undefined;
    return this.cache.keep(key, row.rest === null ? (held as OutputItem) : this.encryption.openOutput(key, outputItem(row)));
  }

  /** Inserts a new object; undefined when an object of that name exists. */
  async create(key: StorageKey, object: KubeObject): Promise<KubeObject | undefined> {
    const version = await this.writes.run({ write: 'create', key, body: storedBody(this.encryption.seal(key, object)) });
    return version === undefined ? undefined : withVersion(version, object);
  }

  /**
   * Replaces the object if it still has `expectedVersion`; undefined when it changed or went away meanwhile (or the
   * write was identical to the stored object, which the trigger skips).
   */
  async update(key: ObjectKey, expectedVersion: string, object: KubeObject): Promise<KubeObject | undefined> {
    const version = await this.writes.run({ write: 'update', key, expectedVersion, body: storedBody(this.encryption.seal(key, object)) });
    return version === undefined ? undefined : withVersion(version, object);
  }

  /** Removes the object if it still has `expectedVersion`; false when it changed or went away meanwhile. */
  async delete(key: ObjectKey, expectedVersion: string): Promise<boolean> {
    return (await this.writes.run({ write: 'delete', key, expectedVersion })) !== undefined;
  }

  /**
   * The objects of a kind the query selects, sorted by namespace and name, with the resourceVersion of the snapshot
   * they were read at (one statement, so one snapshot); the query's range reads a page, or the state at a past
   * resourceVersion (410 when an earlier history of the database handed that version out, see DatabaseHistory).
   */
  async list<F extends ReadForm = 'object'>(key: StorageKey, query: ListQuery = {}, form: F = 'object' as F): Promise<ListResult<FormItem[F]>> {
    const pool = this.poolFor(query);
    const result =
      form === 'output' && keepsItems(query)
        ? ((await this.listThroughCache(pool, key, query)) as ListResult<FormItem[F]>)
        : listResult(await this.listRows<FormRow[F]>(pool, key, query, form), query, (row) =>
            this.opened({ ...key, namespace: row.namespace, name: row.name }, form, itemReader(form)(row)),
          );
    if (!query.mayBeStale) this.history.saw(result.newestVersion);
    return result;
  }

  private async listRows<Row>(pool: Pool, key: StorageKey, query: ListQuery, form: ReadForm, known?: readonly string[]): Promise<ListRow<Row>[]> {
    const { rows } = await retryWhileUnavailable(READ_RETRY_BUDGET_MS, () => pool.query<ListRow<Row>>(listStatement(key, query, form, known)));
    return rows;
  }

  /** A list for output whose rows the server read before come without their texts, which the output cache holds. */
  private async listThroughCache(pool: Pool, key: StorageKey, query: ListQuery): Promise<ListResult<OutputItem>> {
    const cached = this.cache.reading(key, listName(key, query));
    let rows = await this.listRows<OutputRow>(pool, key, query, 'output', cached.known);
    // a row read without its texts whose item is another key's (a state rebuilt at a past version can give several
    // keys one resourceVersion: see CachedListRead.held) has the list read again, every row with its texts
    if (rows.some((row) => row.resource_version !== null && row.rest === null && !cached.held(row))) rows = await this.listRows(pool, key, query, 'output');
    const result = listResult(rows, query, (row) => this.cachedItem(key, row, cached));
    cached.done();
    return result;
  }

  /**
   * The same list (never a page) for a response, read through a cursor as the response is written: the server holds
   * one batch of rows at a time instead of the whole list. The caller must close the cursor.
   */
  async openList(key: StorageKey, query: ListQuery): Promise<ListCursor> {
    // the newest state only, whose rows each have a resourceVersion of their own: a cursor cannot read its rows again
    const cached = keepsItems(query) && query.at === undefined ? this.cache.reading(key, listName(key, query)) : undefined;
    const item = cached ? (row: CursorRow) => this.cachedItem(key, row, cached) : (row: CursorRow) => this.outputOf(key, row);
    const cursor = await ListCursor.open(this.poolFor(query), cursorStatements(key, query, cached?.known), query.at, item, () => cached?.done());
    if (!query.mayBeStale) this.history.saw(cursor.newestVersion);
    return cursor;
  }

  /** The item of a row of a list read through the cache: the one it holds when the row came without its texts. */
  private cachedItem(key: StorageKey, row: CursorRow, cached: CachedListRead): OutputItem {
    const held = row.rest === null ? cached.held(row) : undefined;
    if (row.rest === null && !held) throw new Error(`the list's row of resourceVersion ${row.resource_version} came without its texts, which the cache does not hold`);
    return cached.kept(row, held ?? this.outputOf(key, row));
  }

  /** The item of a list's row read with its texts, its values opened (encryption at rest). */
  private outputOf(key: StorageKey, row: CursorRow): OutputItem {
    return this.encryption.openOutput({ ...key, namespace: row.namespace, name: row.name }, outputItem(row));
  }

  /**
   * The pool a list reads through: the read pool (a streaming standby, DATABASE_READ_URL) for a state that may be
   * stale, the primary's for any other. A state at a resourceVersion an earlier history handed out is refused.
   */
  private poolFor(query: ListQuery): Pool {
    this.history.refuseLost(query.at);
    return query.mayBeStale ? this.readPool : this.pool;
  }

  /**
   * Whether an object this store read must be written again even when an update changes nothing: its values were
   * read with another encryption provider or key than the one that writes (upstream's stale read), which is how a
   * rewrite rotates keys.
   */
  needsRewrite(object: KubeObject): boolean {
    return this.encryption.isStale(object);
  }

  private opened<F extends ReadForm>(key: ObjectKey, form: F, item: FormItem[F]): FormItem[F] {
    return (form === 'object' ? this.encryption.open(key, item as KubeObject) : this.encryption.openOutput(key, item as OutputItem)) as FormItem[F];
  }
}
