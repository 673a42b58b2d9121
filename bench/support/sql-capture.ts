/**
 * Loaded into a server process with `node --require` (never by the server itself): records every statement the pg
 * driver sends, with its parameters and the rows it returned, as JSON lines in the file named by SQL_CAPTURE_FILE.
 * The CRUD benchmark uses it to replay exactly the server's SQL with pgbench.
 */
import { appendFileSync } from 'node:fs';
import { Client, QueryResult } from 'pg';

export interface CapturedStatement {
  name?: string;
  text: string;
  values: unknown[];
  rows: Record<string, unknown>[];
}

type Callback = (error: Error | null, result: QueryResult) => void;

const file = process.env.SQL_CAPTURE_FILE;
if (file) {
  const query = Client.prototype.query as (...args: unknown[]) => unknown;
  (Client.prototype as unknown as { query: unknown }).query = function (this: Client, ...args: unknown[]) {
    const [config, values] = args as [string | { name?: string; text: string; values?: unknown[] }, unknown];
    const statement = typeof config === 'string' ? { text: config } : config;
    const record = (result: QueryResult | undefined) => {
      if (!result || typeof statement.text !== 'string') return;
      const captured: CapturedStatement = {
        name: statement.name,
        text: statement.text,
        values: Array.isArray(values) ? values : (statement.values ?? []),
        rows: result.rows,
      };
      appendFileSync(file, `${JSON.stringify(captured)}\n`);
    };
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as Callback;
      args[last] = (error: Error | null, result: QueryResult) => {
        if (!error) record(result);
        callback(error, result);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args) as Promise<QueryResult> | undefined;
    result?.then?.(record, () => undefined);
    return result;
  };
}
