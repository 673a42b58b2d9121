import { Pool, PoolClient } from 'pg';
import { ListSnapshot } from './list-result';
import { cursorStatements } from './list-statement';
import { OutputItem, OutputRow } from './read-form';
import { ListKey } from './object-key';

/** A row of a list read for output: the object's key and its output columns. */
export type CursorRow = OutputRow & ListKey;

interface SnapshotRow {
  newest_version: string;
  compacted_through: string;
}

const CURSOR = 'list_rows';

/** Rows fetched from a cursor at a time: about what the server holds of a list while writing it. */
export const LIST_BATCH_ROWS = 100;

/**
 * A list read in batches through a server-side cursor (DECLARE ... FETCH), so that only one batch of rows is in
 * memory at a time. It holds a pooled connection in a REPEATABLE READ transaction from `open` to `close`: the
 * snapshot statement runs first and every pass over the rows sees the same snapshot, so the list is consistent and
 * its resourceVersion (known before the first row) is right. `close` must be called once the list is done with, or
 * has failed; it ends the transaction and returns the connection (a connection that failed is discarded).
 */
export class ListCursor implements ListSnapshot {
  private closed?: Promise<void>;
  /** a checked-out client has no listener of its own: a connection lost between two statements must not crash */
  private readonly onError = (error: Error) => {
    this.lost ??= error;
  };
  private lost?: Error;
  /** what each batch of items goes through as it is read (see convertBatches) */
  private convert?: (items: OutputItem[]) => Promise<OutputItem[]>;

  private constructor(
    private readonly client: PoolClient,
    private readonly rows: { text: string; values: unknown[] },
    private readonly item: (row: CursorRow) => OutputItem,
    readonly resourceVersion: string,
    readonly newestVersion: bigint,
    readonly compactedThrough: bigint,
    private readonly finished?: () => void,
  ) {
    client.on('error', this.onError);
  }

  static async open(
    pool: Pool,
    statements: ReturnType<typeof cursorStatements>,
    at: bigint | undefined,
    item: (row: CursorRow) => OutputItem,
    finished?: () => void,
  ): Promise<ListCursor> {
    const client = await pool.connect();
    try {
      // PostgreSQL plans a cursor for its first 10 % of rows: a selective label selector then walks the kind's whole
      // primary key (already in order) instead of its labels index; planned for half, the index wins when it
      // selects few, and a whole list is still read along the key rather than sorted first
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL cursor_tuple_fraction = 0.5');
      const [snapshot] = (await client.query<SnapshotRow>(statements.snapshot)).rows;
      const newest = snapshot.newest_version;
      return new ListCursor(client, statements.rows, item, at?.toString() ?? newest, BigInt(newest), BigInt(snapshot.compacted_through), finished);
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  }

  /**
   * The items in key order, `size` at a time; each call reads them again from the first, in the same snapshot. Once
   * a pass has read every row, `finished` (given to `open`) is told.
   */
  async *batches(size: number): AsyncGenerator<OutputItem[]> {
    await this.client.query({ ...this.rows, text: `DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${this.rows.text}` });
    for (;;) {
      const { rows } = await this.client.query<CursorRow>(`FETCH ${size} FROM ${CURSOR}`);
      if (rows.length > 0) yield this.convert ? await this.convert(rows.map(this.item)) : rows.map(this.item);
      if (rows.length < size) break;
    }
    await this.client.query(`CLOSE ${CURSOR}`);
    this.finished?.();
  }

  /** Passes each batch of items through `convert` as it is read (a conversion to the version the reader asked for). */
  convertBatches(convert: (items: OutputItem[]) => Promise<OutputItem[]>): this {
    this.convert = convert;
    return this;
  }

  /** Ends the transaction and returns the connection; after a failure the connection is closed instead. Idempotent. */
  close(failure?: unknown): Promise<void> {
    this.closed ??= this.end(failure);
    return this.closed;
  }

  private async end(failure: unknown): Promise<void> {
    let broken = this.lost ?? (failure === undefined ? undefined : failure instanceof Error ? failure : new Error(String(failure)));
    if (!broken) {
      try {
        await this.client.query('COMMIT');
      } catch (error) {
        broken = error as Error;
      }
    }
    this.client.removeListener('error', this.onError);
    this.client.release(broken);
  }
}
