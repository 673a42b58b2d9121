import { readFileSync, writeFileSync } from 'node:fs';
import { Client } from 'pg';
import { readListOptions } from '../../src/registry/store/list-options';
import { listQuery } from '../../src/registry/store/list-options-query';
import { planList } from '../../src/registry/store/consistent-list';
import { listStatement } from '../../src/storage/objects/list-statement';
import { Query } from '../../src/apimachinery/parameters/query';
import { KindDefinition } from '../../src/registry/kind-definition';
import { ServerProcess } from '../../test/support/server-process';

/** The body of a response read to its end (or until the text `until`) and dropped: its length in bytes. */
export async function drain(response: Response, until?: string): Promise<number> {
  let bytes = 0;
  let tail = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    if (until === undefined) continue;
    const text = tail + Buffer.from(chunk).toString('latin1');
    if (text.includes(until)) break;
    tail = text.slice(-until.length);
  }
  return bytes;
}

const highWaterOf = (pid: number) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmHWM:\s+(\d+) kB/m)?.[1] ?? 0) * 1024;

/**
 * The server's resident memory while `work` runs: sampled from /proc every `sampleMs`, and the kernel's high-water
 * mark (VmHWM, reset first through clear_refs where the harness may write it); with the resident memory before.
 */
export async function peakRssDuring<T>(server: ServerProcess, work: () => Promise<T>, sampleMs = 10): Promise<{ before: number; peak: number; result: T }> {
  const before = server.rss();
  let resetHighWater = true;
  try {
    writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
  } catch {
    resetHighWater = false;
  }
  let sampled = before;
  const sampler = setInterval(() => (sampled = Math.max(sampled, server.rss())), sampleMs);
  try {
    const result = await work();
    return { before, peak: Math.max(sampled, resetHighWater ? highWaterOf(server.pid) : 0), result };
  } finally {
    clearInterval(sampler);
  }
}

/** The list statement the server runs for a request (`listStatement`), timed through the pg driver and EXPLAINed. */
export async function examineList(sql: Client, kind: KindDefinition, namespace: string | undefined, query: Query) {
  const options = readListOptions(kind, query);
  const statement = listStatement(kind, listQuery(kind, namespace, options, planList(options).range), 'output');
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = process.hrtime.bigint();
    await sql.query(statement);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const { rows } = await sql.query<{ 'QUERY PLAN': string }>({ ...statement, text: `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}` });
  const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
  return {
    statement,
    plan,
    driverMs: times.sort((a, b) => a - b)[2],
    executionMs: Number(plan.match(/Execution Time: ([\d.]+)/)?.[1]),
    usesIndex: /Index (Only )?Scan|Bitmap Index Scan/.test(plan),
  };
}
