import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { percentile } from './load';
import { CapturedStatement } from './sql-capture';

/** Placeholders of the captured object's name and revision in the templates of varying parameters. */
const NAME = '__NAME__';
const REVISION = '__REV__';

export interface ReplayScript {
  /** pgbench script text */
  script: string;
  /** -D variables: fixed parameters and templates */
  variables: Record<string, string>;
}

/**
 * A captured parameter as one write of a batch sees it: `element`, the part of one write, and how the parameter is
 * written for a batch of element texts. The server's batched write statement takes arrays (one element a write) and a
 * JSON array of bodies; any other parameter is the same for every write.
 */
interface Parameter {
  element: string | null;
  /** the parameter's text for these elements; SQL for SQL elements (`sql`), else plain text */
  join(elements: (string | null)[]): string;
  sql: { open: string; quote(element: string): string; close: string } | undefined;
}

const quoteArrayElement = (element: string | null) => (element === null ? 'NULL' : `"${element.replace(/[\\"]/g, '\\$&')}"`);

function parameter(raw: unknown): Parameter {
  if (Array.isArray(raw) && raw.length === 1) {
    return {
      element: raw[0] === null ? null : String(raw[0]),
      join: (elements) => `{${elements.map(quoteArrayElement).join(',')}}`,
      sql: { open: `'{'`, quote: (e) => `'"' || replace(replace(${e}, '\\', '\\\\'), '"', '\\"') || '"'`, close: `'}'` },
    };
  }
  if (typeof raw === 'string' && raw.startsWith('[') && raw.endsWith(']') && (JSON.parse(raw) as unknown[]).length === 1) {
    return { element: raw.slice(1, -1), join: (elements) => `[${elements.join(',')}]`, sql: { open: `'['`, quote: (e) => e, close: `']'` } };
  }
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
  return { element: text, join: () => text, sql: undefined };
}

/**
 * Turns statements captured from the server (for one operation on an object named `name`, whose body carries
 * `revision`) into a pgbench script that runs the same statement texts with the same parameters, as prepared
 * statements, except for what must vary per transaction: a parameter equal to the name takes the name
 * `nameExpression` gives (SQL over pgbench's :client_id and a random :n), one that contains the name or the revision
 * (a body) is built from its captured value with those replaced, and one equal to a column an earlier statement
 * returned takes that column's value in the same transaction (e.g. the resourceVersion a read returned).
 * With `batch` above 1, each write statement carries that many writes, on as many objects, as the server's group
 * commit sends the writes of one batch (its array parameters one element a write).
 */
export function replayScript(statements: CapturedStatement[], name: string, revision: string, nameExpression: string, batch = 1): ReplayScript {
  const variables: Record<string, string> = {};
  const generated: string[] = [];
  const returnedBy = new Map<string, { index: number; column: string }>();
  const gset = new Set<number>();
  const before = new Map<number, string[]>();
  const copies = Array.from({ length: batch }, (_, j) => j);
  const copyName = batch === 1 ? 'x.name' : `x.name || '-' || j`;
  const texts: string[] = [];
  statements.forEach((statement, i) => {
    texts.push(
      statement.text.replace(/\$(\d+)/g, (_match, k: string) => {
        const { element, join, sql } = parameter(statement.values[Number(k) - 1]);
        const variable = `s${i}_${k}`;
        const earlier = element === null ? undefined : returnedBy.get(element);
        if (element !== null && sql && (element === name || element.includes(name) || element.includes(revision))) {
          variables[`t_${variable}`] = element.split(name).join(NAME).split(revision).join(REVISION);
          const one = `replace(replace(:t_${variable}, '${NAME}', ${copyName}), '${REVISION}', x.n)`;
          const elements = batch === 1 ? sql.quote(one) : `(SELECT string_agg(${sql.quote(one)}, ',') FROM generate_series(1, ${batch}) j)`;
          generated.push(`${sql.open} || ${elements} || ${sql.close} AS ${variable}`);
        } else if (element !== null && (element === name || element.includes(name) || element.includes(revision))) {
          variables[`t_${variable}`] = element.split(name).join(NAME).split(revision).join(REVISION);
          generated.push(`replace(replace(:t_${variable}, '${NAME}', x.name), '${REVISION}', x.n) AS ${variable}`);
        } else if (earlier && !sql) {
          gset.add(earlier.index);
          return `:prev_${earlier.column}`;
        } else if (earlier && sql) {
          // an array of the value an earlier statement returned: built in one more parameter SELECT
          gset.add(earlier.index);
          const quoted = sql.quote(`:prev_${earlier.column}::text`);
          before.set(i, [...(before.get(i) ?? []), `SELECT ${sql.open} || ${copies.map(() => quoted).join(` || ',' || `)} || ${sql.close} AS ${variable} \\gset`]);
        } else {
          variables[variable] = join(copies.map(() => element));
        }
        return `:${variable}`;
      }),
    );
    for (const [column, value] of Object.entries(statement.rows[0] ?? {})) {
      if (typeof value === 'string' && !returnedBy.has(value)) returnedBy.set(value, { index: i, column });
    }
  });
  const lines = [
    '\\set n random(1, 1000000000000)',
    `SELECT ${['x.name', ...generated].join(', ')} FROM (SELECT ${nameExpression} AS name, :n::text AS n) x \\gset`,
    ...texts.flatMap((text, i) => [...(before.get(i) ?? []), `${text}${gset.has(i) ? ' \\gset prev_' : ';'}`]),
  ];
  return { script: `${lines.join('\n')}\n`, variables };
}

export interface PgbenchResult {
  tps: number;
  transactions: number;
  /** latency percentiles of a transaction, in ms */
  p50: number;
  p99: number;
}

/** Runs a pgbench script with `clients` clients for `seconds`, in prepared mode, over the database at `url`. */
export async function runPgbench(url: string, replay: ReplayScript, clients: number, seconds: number): Promise<PgbenchResult> {
  const dir = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'pgkube-pgbench-'));
  try {
    const scriptFile = join(dir, 'script.sql');
    writeFileSync(scriptFile, replay.script);
    const args = ['-n', '-M', 'prepared', '-c', String(clients), '-j', String(Math.min(clients, 2)), '-T', String(seconds)];
    args.push('-f', scriptFile, '--log', `--log-prefix=${join(dir, 'log')}`);
    for (const [name, value] of Object.entries(replay.variables)) args.push('-D', `${name}=${value}`);
    const { stdout } = await promisify(execFile)('pgbench', [...args, url], { cwd: dir, maxBuffer: 16 * 2 ** 20 });
    const tps = Number(stdout.match(/tps = ([\d.]+)/)?.[1]);
    const failed = Number(stdout.match(/number of failed transactions: (\d+)/)?.[1] ?? 0);
    if (!Number.isFinite(tps) || /aborted/.test(stdout) || failed > 0) throw new Error(`pgbench failed:\n${stdout}`);
    const latencies = readdirSync(dir)
      .filter((file) => file.startsWith('log'))
      .flatMap((file) => readFileSync(join(dir, file), 'utf8').trim().split('\n'))
      .map((line) => Number(line.split(' ')[2]) / 1000)
      .sort((a, b) => a - b);
    return { tps, transactions: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
