/**
 * `npm run bench:table`: the server CPU of a list of 1,000 Deployments answered as a Table (what `kubectl get`
 * asks for) against the same list in plain JSON. Target: at most 1.3 times.
 */
import { Client } from 'pg';
import { ServerProcess } from '../test/support/server-process';
import { describeMachine, formatNumber, table, writeSection } from './support/results';
import { runBenchmark } from './support/run';
import { Cluster } from './support/server';
import { copyOf, insertObjects, storedTemplate } from './support/stored-objects';

const OBJECTS = 1000;
const REPEAT = Number(process.env.BENCH_TABLE_REPEAT ?? 200);
const PATH = '/apis/extensions/v1beta1/namespaces/table/deployments';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const TARGET = 1.3;

/** Server CPU ms of one list, and its size. */
async function list(server: ServerProcess, accept: string) {
  const before = server.cpuMs();
  const response = await fetch(`${server.url}${PATH}`, { headers: { accept } });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`${response.status}: ${body.slice(0, 300)}`);
  return { cpuMs: server.cpuMs() - before, bytes: body.length };
}

/** Both forms in turn, so that both meet the same state of the machine; the first two of each are warm-up. */
async function measure(server: ServerProcess) {
  const totals = { plain: { cpuMs: 0, bytes: 0 }, table: { cpuMs: 0, bytes: 0 } };
  for (let i = 0; i < REPEAT + 2; i++) {
    for (const [form, accept] of [['plain', 'application/json'], ['table', TABLE]] as const) {
      const one = await list(server, accept);
      if (i >= 2) totals[form].cpuMs += one.cpuMs / REPEAT;
      totals[form].bytes = one.bytes;
    }
  }
  return totals;
}

runBenchmark(async () => {
  const cluster = await Cluster.start(1);
  const sql = new Client({ connectionString: cluster.databaseUrl });
  await sql.connect();
  try {
    const server = cluster.servers[0];
    const template = await storedTemplate(server.url, sql);
    await insertObjects(
      sql,
      Array.from({ length: OBJECTS }, (_, i) => copyOf(template, 'table', `dep-${i}`)),
    );
    const { plain, table: asTable } = await measure(server);
    const ratio = asTable.cpuMs / plain.cpuMs;
    const body = [
      await describeMachine(cluster.databaseUrl),
      `- ${OBJECTS} Deployments in one namespace; ${REPEAT} lists of each form, taken in turn, after 2 warm-up lists of each; server CPU from /proc`,
      '',
      table(
        ['list', 'server CPU ms/list', 'response'],
        [
          ['plain JSON (DeploymentList)', formatNumber(plain.cpuMs), `${formatNumber(plain.bytes / 1024)} KiB`],
          ['Table (rows with PartialObjectMetadata)', formatNumber(asTable.cpuMs), `${formatNumber(asTable.bytes / 1024)} KiB`],
        ],
      ),
      '',
      `Table/plain CPU per list: **${ratio.toFixed(2)}×** (target ≤ ${TARGET}×: ${ratio <= TARGET ? 'met' : 'not met'}).`,
    ].join('\n');
    console.log(body);
    writeSection('Table output: a list of 1,000 as a Table against plain JSON (`npm run bench:table`)', body);
  } finally {
    await sql.end();
    await cluster.stop();
  }
});
