import { Client } from 'pg';

/** The pg connection's messages a COPY FROM STDIN sends (pg's own query protocol, which its Submittable reaches). */
interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

/**
 * One `COPY … FROM STDIN` of rows already in COPY's text format (columns separated by tabs, a row per line), sent in
 * chunks; resolves with the number of rows copied. A pg Submittable: the driver hands it the connection's messages.
 */
class CopyIn {
  readonly done: Promise<number>;
  private resolve!: (rows: number) => void;
  private reject!: (error: Error) => void;
  private rows = 0;
  private error?: Error;

  constructor(
    private readonly statement: string,
    private readonly chunks: Buffer[],
  ) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: CopyConnection): void {
    connection.query(this.statement);
  }

  handleCopyInResponse(connection: CopyConnection): void {
    for (const chunk of this.chunks) connection.sendCopyFromChunk(chunk);
    connection.endCopyFrom();
  }

  handleCommandComplete(message: { text: string }): void {
    this.rows = Number(message.text.split(' ')[1]);
  }

  handleError(error: Error): void {
    this.error = error;
  }

  handleReadyForQuery(): void {
    if (this.error) this.reject(this.error);
    else this.resolve(this.rows);
  }
}

/** A value in COPY's text format: backslashes doubled, tabs and line ends escaped; null as \N. */
export function copyText(value: string | number | bigint | null): string {
  if (value === null) return '\\N';
  return String(value).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/** Copies rows (arrays of values in the statement's column order) with `COPY <table> (<columns>) FROM STDIN`. */
export async function copyRows(sql: Client, table: string, columns: string[], rows: (string | number | bigint | null)[][]): Promise<number> {
  const chunks: Buffer[] = [];
  let lines: string[] = [];
  const flush = () => {
    chunks.push(Buffer.from(lines.join('')));
    lines = [];
  };
  for (const row of rows) {
    lines.push(`${row.map(copyText).join('\t')}\n`);
    if (lines.length === 1000) flush();
  }
  flush();
  const copy = new CopyIn(`COPY ${table} (${columns.join(', ')}) FROM STDIN`, chunks);
  sql.query(copy as never);
  return copy.done;
}
