import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from 'pg';

export const RESULTS_FILE = join(__dirname, '..', '..', '..', 'bench', 'results', 'latest.md');

export type Cell = string | number | undefined;

/** A Markdown table; numbers are rounded to a precision that suits their size. */
export function table(header: string[], rows: Cell[][]): string {
  const cell = (value: Cell) => (value === undefined ? '–' : typeof value === 'number' ? formatNumber(value) : value);
  const lines = [header, header.map(() => '---'), ...rows.map((row) => row.map(cell))];
  return lines.map((line) => `| ${line.join(' | ')} |`).join('\n');
}

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value) || Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(Math.abs(value) >= 10 ? 1 : 2);
}

/** nproc, memory, CPU model, Node and PostgreSQL versions, date. */
export async function describeMachine(databaseUrl: string): Promise<string> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
  const settings = await client.query<{ name: string; setting: string }>(
    `SELECT name, setting FROM pg_settings WHERE name IN ('shared_buffers', 'synchronous_commit', 'fsync') ORDER BY name`,
  );
  await client.end();
  const nproc = execFileSync('nproc').toString().trim();
  const pg = `${rows[0].server_version} (${settings.rows.map((r) => `${r.name}=${r.setting}`).join(', ')})`;
  return [
    `- date: ${new Date().toISOString()}`,
    `- machine: nproc ${nproc}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory, ${cpus()[0]?.model ?? 'unknown CPU'}`,
    `- Node ${process.version}; PostgreSQL ${pg}`,
    `- the machine is shared with other developers' test runs, and the load generator, the server and PostgreSQL share its cores: figures are noisy`,
  ].join('\n');
}

/**
 * Appends this benchmark's section to bench/results/latest.md, replacing the one of the same title (sections run from
 * `## <title>` to the next): the file holds the latest run of each benchmark, and of each `BENCH_LABEL` (e.g.
 * "before", to keep the figures of a run before a change beside those after it).
 */
export function writeSection(name: string, body: string): void {
  const title = process.env.BENCH_LABEL ? `${name} (${process.env.BENCH_LABEL})` : name;
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  const heading = `## ${title}`;
  const current = existsSync(RESULTS_FILE) ? readFileSync(RESULTS_FILE, 'utf8') : '# Benchmark results\n';
  const sections = current.split(/^(?=## )/m).filter((s) => !s.startsWith(`${heading}\n`));
  writeFileSync(RESULTS_FILE, `${sections.join('').trimEnd()}\n\n${heading}\n\n${body.trim()}\n`);
}

