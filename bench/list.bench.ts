/**
 * `npm run bench:list`: list latency over 100,000 stored Deployments in 10 namespaces — a whole namespace, a label
 * selector matching 1 %, a field selector on metadata.name, pages of 500 — with the plans of the exact statements the
 * server runs; and the server's peak memory while 8 clients read every object unpaged, as a list, as a Table and as
 * the initial events of a watch-list, at 10,000 and at 100,000.
 */
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { Query } from '../src/apimachinery/parameters/query';
import { EXTENSIONS_KINDS } from '../src/apis/extensions/extensions.kinds';
import { profileTables, profileWork } from './support/cpu-profile';
import { drain, examineList, peakRssDuring } from './support/list-probes';
import { percentile } from './support/load';
import { describeMachine, table, writeSection } from './support/results';
import { runBenchmark } from './support/run';
import { Cluster } from './support/server';
import { ServerProcess } from '../test/support/server-process';
import { copyOf, insertObjects, StoredBody, storedTemplate } from './support/stored-objects';

const OBJECTS = Number(process.env.BENCH_LIST_OBJECTS ?? 100_000);
/** the smaller store the peak memory of unpaged lists is compared at */
const FEWER_OBJECTS = OBJECTS / 10;
const LISTING_CLIENTS = 8;
const RSS_SAMPLE_MS = 10;
const NAMESPACES = 10;
const BATCH = 5000;
const DEPLOYMENTS = EXTENSIONS_KINDS.find((k) => k.resource === 'deployments')!;

/**
 * How the state is asked for in the memory measure: as a list, as the Table `kubectl get --chunk-size=0` asks for,
 * and as the initial events of a watch-list, read up to the bookmark that ends them (`until`).
 */
const ANSWERS = [
  { name: 'list', accept: 'application/json', query: '' },
  { name: 'Table', accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json', query: '' },
  {
    name: 'watch-list',
    accept: 'application/json',
    query: '?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
    until: '"k8s.io/initial-events-end":"true"',
  },
];

type Answer = (typeof ANSWERS)[number];

interface Case {
  name: string;
  namespace?: string;
  query: Query;
  repeat: number;
}

const CASES: Case[] = [
  { name: 'whole namespace (10 %)', namespace: 'list-3', query: {}, repeat: 10 },
  { name: 'labelSelector shard=s7, all namespaces (1 %)', query: { labelSelector: 'shard=s7' }, repeat: 100 },
  { name: 'fieldSelector metadata.name, all namespaces (1 object)', query: { fieldSelector: 'metadata.name=dep-54321' }, repeat: 100 },
  { name: 'fieldSelector metadata.name, one namespace (1 object)', namespace: 'list-5', query: { fieldSelector: 'metadata.name=dep-54321' }, repeat: 100 },
];

const pathOf = (c: Case) =>
  `/apis/extensions/v1beta1/${c.namespace ? `namespaces/${c.namespace}/` : ''}deployments?${new URLSearchParams(c.query as Record<string, string>)}`;

/**
 * Stores objects `from` to `to` with plain SQL (the triggers still stamp versions and log changes), copies of one the
 * API made; their namespaces spread the final OBJECTS over NAMESPACES.
 */
async function fill(template: StoredBody, sql: Client, from: number, to: number): Promise<number> {
  const started = Date.now();
  for (let first = from; first < to; first += BATCH) {
    const batch = [];
    for (let i = first; i < Math.min(to, first + BATCH); i++) {
      batch.push(copyOf(template, `list-${Math.floor((i * NAMESPACES) / OBJECTS)}`, `dep-${i}`, { shard: `s${i % 100}` }));
    }
    await insertObjects(sql, batch);
  }
  await sql.query('ANALYZE objects');
  return (Date.now() - started) / 1000;
}

/**
 * The server's resident memory while LISTING_CLIENTS clients read every Deployment unpaged at once, as `answer` asks
 * for them; with the 1-minute load average at the end.
 */
async function peakRss(server: ServerProcess, answer: Answer) {
  const path = `${server.url}/apis/extensions/v1beta1/deployments${answer.query}`;
  const headers = { accept: answer.accept };
  await drain(await fetch(path, { headers }), answer.until); // warm-up
  const started = Date.now();
  const { before, peak, result: sizes } = await peakRssDuring(
    server,
    () =>
      Promise.all(
        Array.from({ length: LISTING_CLIENTS }, async () => {
          const response = await fetch(path, { headers });
          if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
          return drain(response, answer.until);
        }),
      ),
    RSS_SAMPLE_MS,
  );
  return { before, peak, seconds: (Date.now() - started) / 1000, responseBytes: sizes[0], load: loadavg()[0] };
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

async function measure(server: ServerProcess, c: Case) {
  const base = server.url;
  const latencies: number[] = [];
  let cpu = 0;
  let bytes = 0;
  let items = 0;
  for (let i = 0; i < c.repeat + 2; i++) {
    const cpuBefore = server.cpuMs();
    const start = process.hrtime.bigint();
    const response = await fetch(`${base}${pathOf(c)}`);
    const body = await response.text();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (i >= 2) cpu += server.cpuMs() - cpuBefore;
    if (response.status !== 200) throw new Error(`${pathOf(c)}: ${response.status} ${body.slice(0, 300)}`);
    if (i < 2) continue; // warm-up
    latencies.push(ms);
    bytes = body.length;
    items = (JSON.parse(body) as { items: unknown[] }).items.length;
  }
  latencies.sort((a, b) => a - b);
  return { items, bytes, p50: percentile(latencies, 50), p99: percentile(latencies, 99), cpuMs: cpu / c.repeat };
}

/**
 * Pages of 500 (issue 15): the first page of all namespaces, a page in the middle (its continue token, at the first
 * page's resourceVersion, after 100 objects changed since), and an Exact list at that older resourceVersion.
 */
async function pageCases(base: string, sql: Client): Promise<Case[]> {
  const middle = Math.min(101, Math.floor(OBJECTS / 1000) + 1); // the 101st of 200 pages of 100,000 objects
  const first = (await (await fetch(`${base}/apis/extensions/v1beta1/deployments?limit=500`)).json()) as { metadata: { resourceVersion: string } };
  const snapshot = first.metadata.resourceVersion;
  await sql.query(`UPDATE objects SET body = jsonb_set(body, '{metadata,annotations}', '{"changed":"yes"}') WHERE name IN (${Array.from({ length: 100 }, (_, i) => `'dep-${OBJECTS / 2 + i}'`).join(',')})`);
  let token = (first as unknown as { metadata: { continue: string } }).metadata.continue;
  for (let i = 2; i < middle; i++) {
    const page = (await (await fetch(`${base}/apis/extensions/v1beta1/deployments?limit=500&continue=${encodeURIComponent(token)}`)).json()) as { metadata: { continue: string } };
    token = page.metadata.continue;
  }
  return [
    { name: 'page of 500, first, all namespaces', query: { limit: '500' }, repeat: 100 },
    { name: `page of 500, the ${middle}${middle === 101 ? 'st' : 'th'}, at the first page's resourceVersion`, query: { limit: '500', continue: token }, repeat: 100 },
    { name: 'Exact list of 500 at an older resourceVersion (100 objects changed since)', query: { limit: '500', resourceVersion: snapshot, resourceVersionMatch: 'Exact' }, repeat: 100 },
  ];
}

/** The statement the server runs for a case, timed through the pg driver and EXPLAINed. */
const examine = (sql: Client, c: Case) => examineList(sql, DEPLOYMENTS, c.namespace, c.query);

async function main(): Promise<void> {
  const cluster = await Cluster.start(1);
  const sql = new Client({ connectionString: cluster.databaseUrl });
  await sql.connect();
  try {
    const base = cluster.servers[0].url;
    const template = await storedTemplate(base, sql);
    console.log(`storing ${FEWER_OBJECTS} Deployments…`);
    let fillSeconds = await fill(template, sql, 0, FEWER_OBJECTS);
    const memory = async (objects: number) => {
      const measured = [];
      for (const answer of ANSWERS) {
        const m = await peakRss(cluster.servers[0], answer);
        console.log(`${LISTING_CLIENTS} unpaged ${answer.name}s of ${objects}: peak RSS ${mib(m.peak)} (before ${mib(m.before)}), ${m.seconds} s, load ${m.load.toFixed(2)}`);
        measured.push({ answer, objects, ...m });
      }
      return measured;
    };
    const fewer = await memory(FEWER_OBJECTS);
    console.log(`storing up to ${OBJECTS} Deployments…`);
    fillSeconds += await fill(template, sql, FEWER_OBJECTS, OBJECTS);
    console.log(`stored in ${fillSeconds.toFixed(1)} s`);
    const all = await memory(OBJECTS);
    const memoryRows = [...fewer, ...all].map((m) => [
      m.answer.name,
      m.objects.toLocaleString('en-US'),
      `${(m.responseBytes / 2 ** 20).toFixed(0)} MiB`,
      mib(m.before),
      mib(m.peak),
      m.seconds.toFixed(1),
      m.load.toFixed(2),
    ]);
    const growths = ANSWERS.map((answer, i) => {
      const growth = all[i].peak / fewer[i].peak;
      return `${answer.name} ${growth.toFixed(2)}× (${growth <= 1.2 ? 'met' : 'missed'})`;
    });
    const rows: (string | number)[][] = [];
    const plans: string[] = [];
    let labelCase: { p99: number; usesIndex: boolean } | undefined;
    const pageRatios: string[] = [];
    const pages = await pageCases(base, sql);
    for (const c of [...CASES, ...pages]) {
      const http = await measure(cluster.servers[0], c);
      const db = await examine(sql, c);
      rows.push([c.name, http.items, `${(http.bytes / 1024).toFixed(0)} KiB`, http.p50, http.p99, http.cpuMs, db.executionMs, db.driverMs, db.usesIndex ? 'yes' : 'no']);
      plans.push(`#### ${c.name}\n\n\`GET ${pathOf(c)}\`\n\n\`\`\`\n${db.statement.text.replace(/\n\s+/g, '\n  ')}\n-- ${JSON.stringify(db.statement.values)}\n\n${db.plan}\n\`\`\``);
      if (c.query.labelSelector) labelCase = { p99: http.p99, usesIndex: db.usesIndex };
      if (c.query.limit) pageRatios.push(`${c.name}: p99 ${http.p99.toFixed(1)} ms, ${(http.p99 / db.driverMs).toFixed(2)}× its SQL through the driver (p50 ${(http.p50 / db.driverMs).toFixed(2)}×), load ${loadavg()[0].toFixed(2)}`);
      console.log(`${c.name}: ${http.items} items, ${http.bytes} bytes, p50 ${http.p50.toFixed(1)} ms, p99 ${http.p99.toFixed(1)} ms; SQL ${db.executionMs} ms, via driver ${db.driverMs.toFixed(1)} ms, index: ${db.usesIndex}`);
    }
    const labelSelected = CASES[1];
    const firstPage = pages[0];
    const profiles = [];
    for (const profiled of [labelSelected, firstPage]) {
      profiles.push({ profiled, summary: await profileWork(cluster, (server) => measure(server, profiled).then(() => undefined)) });
    }
    const results = table(['list', 'items', 'response', 'p50 ms', 'p99 ms', 'server CPU ms/request', 'SQL execution ms', 'SQL + driver parse ms', 'index used'], rows);
    const target = labelCase
      ? `1 % label-selected list over ${OBJECTS.toLocaleString('en-US')}: p99 ${labelCase.p99.toFixed(1)} ms (target ≤ 100 ms: ${labelCase.p99 <= 100 ? 'met' : 'missed'}); plan uses an index: ${labelCase.usesIndex ? 'yes' : 'no'}`
      : '';
    writeSection(
      'Lists over 100k objects: `npm run bench:list`',
      [
        await describeMachine(cluster.databaseUrl),
        `- ${OBJECTS.toLocaleString('en-US')} Deployments (~2 KB as listed) in ${NAMESPACES} namespaces, stored with SQL in ${fillSeconds.toFixed(1)} s (triggers applied); label \`shard\` = s0…s99 spread over all namespaces`,
        '- latency: sequential requests over HTTP from the harness, after 2 warm-up requests; "server CPU" is the user+system time of the server process per request, from /proc (steadier than latency on a shared machine); "SQL execution" is EXPLAIN ANALYZE\'s, "SQL + driver parse" the same statement run through the pg driver from the harness (rows parsed into objects)',
        '',
        results,
        '',
        `Target: ${target}.`,
        '',
        `Pages (target: a 500-item page's p99 at most 1.5× the raw SQL of the same page): ${pageRatios.join('; ')}.`,
        '',
        `### Server memory while ${LISTING_CLIENTS} clients read every object unpaged at once`,
        '',
        `Resident memory of the server process, sampled from /proc every ${RSS_SAMPLE_MS} ms and its high-water mark (VmHWM, reset before the lists); each client reads its response to the end as it arrives. "Table": \`Accept: ${ANSWERS[1].accept}\` (what \`kubectl get --chunk-size=0\` sends), rows with the objects' metadata; "watch-list": \`?${ANSWERS[2].query.slice(1)}\`, read up to the bookmark that ends the initial events, then closed.`,
        '',
        table(['answer', 'objects stored', 'one response', 'RSS before', 'peak RSS', 'seconds for the 8 lists', 'load (1 min)'], memoryRows),
        '',
        `Target: the peak does not grow with the list (≤ 1.2× from ${FEWER_OBJECTS.toLocaleString('en-US')} to ${OBJECTS.toLocaleString('en-US')} objects): ${growths.join('; ')}.`,
        '',
        ...profiles.flatMap(({ profiled, summary }) => [
          `### CPU profile of the server during the ${profiled.repeat + 2} requests of "${profiled.name}"`,
          '',
          profileTables(summary),
          '',
        ]),
        '### Plans (EXPLAIN (ANALYZE, BUFFERS) of the statements the server runs, built by `listStatement`)',
        '',
        ...plans,
      ].join('\n'),
    );
    console.log(`\n${results}\n\n${target}\nwritten to bench/results/latest.md`);
  } finally {
    await sql.end();
    await cluster.stop();
  }
}

runBenchmark(main);
