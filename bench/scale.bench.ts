/**
 * `npm run bench:scale`: the store at 100,000 and at 1,000,000 Deployments (issue 36). Each size gets its own scratch
 * database, filled with SQL COPY with copies of the rows the server stored for a Deployment made through the API,
 * then a restart, and measures: the time until /readyz, GET, the first and a later page of 500, the first page of a
 * 1 % label selection, a watch from the newest version, one unpaged list's peak server memory, the compactor's run
 * over a change log of every loaded object, and VACUUM's effect. Ratios of the largest size to the smallest follow.
 * Needs DATABASE_URL (a PostgreSQL the harness may create databases on, as a superuser: the copy bypasses triggers).
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { EXTENSIONS_KINDS } from '../src/apis/extensions/extensions.kinds';
import { Query } from '../src/apimachinery/parameters/query';
import { copyRows } from './support/copy-in';
import { profileTables, profileWork, ProfileSummary } from './support/cpu-profile';
import { createDeployment } from './support/deployment';
import { drain, examineList, peakRssDuring } from './support/list-probes';
import { percentile } from './support/load';
import { describeMachine, table, writeSection } from './support/results';
import { runBenchmark } from './support/run';
import { Cluster, ServerOptions } from './support/server';
import { ServerProcess } from '../test/support/server-process';

const SIZES = (process.env.BENCH_SCALE_OBJECTS ?? '100000,1000000').split(',').map(Number);
const NAMESPACES = 10;
const COPY_BATCH = 10_000;
const DEPLOYMENTS = EXTENSIONS_KINDS.find((k) => k.resource === 'deployments')!;
const API = '/apis/extensions/v1beta1';
const TEMPLATE_NAMESPACE = 'scale-template';
/** The loaded changes are older than the change log's retention (an hour), so that the compactor removes them all. */
const LOADED_AGO_MS = 2 * 3600_000;
/** The servers that measure never compact on their own; one started with an interval of a second does. */
const MEASURING: ServerOptions = { env: { COMPACTION_INTERVAL_SECONDS: '86400' } };
const COMPACTING: ServerOptions = { env: { COMPACTION_INTERVAL_SECONDS: '1' } };
const READY_POLL_MS = 20;
/** How long the compaction is waited for (its time reads NaN when it has not committed by then). */
const COMPACTION_TIMEOUT_MS = 15 * 60_000;

interface Timing {
  p50: number;
  p99: number;
  /** 1-minute load average when the requests were done */
  load: number;
}

interface ListCase {
  name: string;
  query: Query;
}

interface Figures {
  objects: number;
  loadSeconds: number;
  readyMs: number;
  startRss: number;
  get: Timing;
  firstPage: Timing;
  laterPage: Timing & { page: number; walkMs: number };
  labelPage: Timing & { items: number };
  watch: Timing;
  unpaged: { before: number; peak: number; seconds: number; bytes: number; load: number } | { failed: string };
  compaction: { removed: number; ms: number; load: number };
  vacuum: { ms: number; sizesBefore: Sizes; sizesAfter: Sizes; getBefore: Timing; getAfter: Timing; pageBefore: Timing; pageAfter: Timing };
  plans: { name: string; text: string; plan: string; executionMs: number }[];
  profiles: { name: string; summary: ProfileSummary & { windowed: boolean } }[];
}

type Sizes = Record<'objects' | 'change_log', number>;

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const nameOf = (i: number) => ({ namespace: `scale-${i % NAMESPACES}`, name: `dep-${i}` });
const since = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e6;

/** Latency percentiles of `count` sequential calls of `request` (the n-th), after `warmUp` calls left out. */
async function timed(count: number, request: (n: number) => Promise<void>, warmUp = 3): Promise<Timing> {
  const latencies: number[] = [];
  for (let n = 0; n < warmUp + count; n++) {
    const started = process.hrtime.bigint();
    await request(n);
    if (n >= warmUp) latencies.push(since(started));
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), load: loadavg()[0] };
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

interface StoredRow {
  api_group: string;
  resource: string;
  body: { metadata: Record<string, unknown> };
}

/**
 * The columns a row of `objects`, `change_log` and `object_labels` is written with (the others are generated from the body): the
 * copy fills exactly these, and stops if the storage layer's tables have gained one it does not know.
 */
const COPIED_COLUMNS = {
  objects: ['api_group', 'resource', 'resource_version', 'created_at', 'updated_at', 'body'],
  change_log: ['resource_version', 'event_type', 'api_group', 'resource', 'namespace', 'name', 'uid', 'object', 'previous_object', 'changed_at'],
  object_labels: ['api_group', 'resource', 'namespace', 'name', 'label_key', 'label_value'],
};

async function checkColumns(sql: Client): Promise<void> {
  for (const [tableName, expected] of Object.entries(COPIED_COLUMNS)) {
    const { rows } = await sql.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
      [tableName],
    );
    const written = rows.map((r) => r.column_name);
    if (written.join() !== expected.join()) throw new Error(`${tableName} has the columns ${written.join(', ')}; the copy knows ${expected.join(', ')}`);
  }
}

/**
 * Drops the indexes of `objects` and `change_log` other than their keys, and answers their definitions: a copy is
 * quicker into bare tables, and the same indexes are built anew after it.
 */
async function dropIndexes(sql: Client): Promise<string[]> {
  const { rows } = await sql.query<{ name: string; definition: string }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
     WHERE schemaname = current_schema() AND tablename IN ('objects', 'change_log')
       AND indexname NOT IN (SELECT conname FROM pg_constraint)`,
  );
  for (const { name } of rows) await sql.query(`DROP INDEX ${name}`);
  return rows.map((r) => r.definition);
}

/**
 * Stores `count` copies of the template's row as the server's triggers would have (triggers off during the copy):
 * each a row of `objects` with its own name, namespace, uid, label `shard` (s0…s99) and resourceVersion from the
 * sequence, its ADDED row in the change log and a row of object_labels per label; then the indexes built, the sequence moved past the copies and the
 * statistics gathered.
 */
async function load(sql: Client, template: StoredRow, count: number): Promise<{ seconds: number; newest: bigint }> {
  const started = process.hrtime.bigint();
  await checkColumns(sql);
  const { rows } = await sql.query<{ first: string }>(`SELECT nextval('resource_version_seq') AS first`);
  const first = BigInt(rows[0].first);
  const loadedAt = new Date(Date.now() - LOADED_AGO_MS);
  const creationTimestamp = `${loadedAt.toISOString().slice(0, 19)}Z`;
  const indexes = await dropIndexes(sql);
  await sql.query(`SET session_replication_role = replica`);
  for (let from = 0; from < count; from += COPY_BATCH) {
    const objects = [];
    const changes = [];
    const labelRows = [];
    for (let i = from; i < Math.min(count, from + COPY_BATCH); i++) {
      const { namespace, name } = nameOf(i);
      const uid = randomUUID();
      const labels = { ...(template.body.metadata.labels as object), shard: `s${i % 100}` };
      const body = JSON.stringify({ ...template.body, metadata: { ...template.body.metadata, name, namespace, uid, labels, creationTimestamp } });
      const version = first + BigInt(i);
      objects.push([template.api_group, template.resource, version, loadedAt.toISOString(), loadedAt.toISOString(), body]);
      changes.push([version, 'ADDED', template.api_group, template.resource, namespace, name, uid, body, null, loadedAt.toISOString()]);
      for (const [key, value] of Object.entries(labels)) labelRows.push([template.api_group, template.resource, namespace, name, key, value]);
    }
    await copyRows(sql, 'objects', COPIED_COLUMNS.objects, objects);
    await copyRows(sql, 'change_log', COPIED_COLUMNS.change_log, changes);
    await copyRows(sql, 'object_labels', COPIED_COLUMNS.object_labels, labelRows);
    if ((from / COPY_BATCH) % 10 === 9) console.log(`  ${from + COPY_BATCH} rows copied, ${(since(started) / 1000).toFixed(0)} s`);
  }
  await sql.query(`RESET session_replication_role`);
  for (const definition of indexes) await sql.query(definition);
  await sql.query(`SELECT setval('resource_version_seq', $1)`, [String(first + BigInt(count) - 1n)]);
  await sql.query('ANALYZE objects, change_log, object_labels');
  return { seconds: since(started) / 1000, newest: first + BigInt(count) - 1n };
}

/** The template's stored rows, and a check that its change-log row holds the same body (what the copy relies on). */
async function storedTemplate(base: string, sql: Client): Promise<StoredRow> {
  await createDeployment(base, TEMPLATE_NAMESPACE, 'template');
  const { rows } = await sql.query<StoredRow & { logged: unknown }>(
    `SELECT o.api_group, o.resource, o.body, c.object AS logged FROM objects o JOIN change_log c USING (resource_version) WHERE o.namespace = $1`,
    [TEMPLATE_NAMESPACE],
  );
  if (rows.length !== 1 || JSON.stringify(rows[0].body) !== JSON.stringify(rows[0].logged)) throw new Error('the template is not stored as expected');
  return rows[0];
}

/** The object as the API returns it, without what differs between copies. */
function comparable(object: { metadata: Record<string, unknown> }): string {
  const { name, namespace, uid, labels, resourceVersion, creationTimestamp, selfLink, ...rest } = object.metadata;
  return JSON.stringify({ ...object, metadata: rest });
}

/** The server reads loaded objects as it reads the one it made: the same answer but for the copies' own fields. */
async function checkLoaded(base: string, count: number): Promise<void> {
  type Got = { metadata: Record<string, unknown> };
  const original = await getJson<Got>(`${base}${API}/namespaces/${TEMPLATE_NAMESPACE}/deployments/template`);
  for (const i of [0, Math.floor(count / 2), count - 1]) {
    const { namespace, name } = nameOf(i);
    const copy = await getJson<Got>(`${base}${API}/namespaces/${namespace}/deployments/${name}`);
    if (comparable(copy) !== comparable(original) || (copy.metadata.labels as Record<string, string>).shard !== `s${i % 100}`) {
      throw new Error(`${namespace}/${name} reads differently from the object the API made:\n${JSON.stringify(copy)}\n${JSON.stringify(original)}`);
    }
  }
}

/** Starts a server over the database and measures the time until /readyz answers 200. */
async function restart(cluster: Cluster, options: ServerOptions): Promise<{ server: ServerProcess; readyMs: number }> {
  const started = process.hrtime.bigint();
  const server = await cluster.add(options);
  while (!(await fetch(`${server.url}/readyz`).then((r) => r.ok, () => false))) await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  return { server, readyMs: since(started) };
}

const LIST_CASES = {
  first: { name: 'first page of 500', query: { limit: '500' } },
  label: { name: '1 % label selection (shard=s7), first page of 500', query: { labelSelector: 'shard=s7', limit: '500' } },
} satisfies Record<string, ListCase>;

const listUrl = (base: string, query: Query) => `${base}${API}/deployments?${new URLSearchParams(query as Record<string, string>)}`;

async function listTiming(base: string, query: Query, count: number): Promise<Timing & { items: number }> {
  let items = 0;
  const timing = await timed(count, async () => {
    items = (await getJson<{ items: unknown[] }>(listUrl(base, query))).items.length;
  });
  return { ...timing, items };
}

/** GETs of objects spread over the store (a fixed pseudo-random walk, the same at every size). */
const getOne = (base: string, count: number) => async (n: number) => {
  const { namespace, name } = nameOf((n * 7919 + 13) % count);
  await getJson(`${base}${API}/namespaces/${namespace}/deployments/${name}`);
};

/**
 * The continue token of a later page, walking there page by page (the middle one of 100,000 objects, the 101st of
 * 200; the same page of more, as the walk costs what the page costs); with the time per page of the walk.
 */
async function walkToLaterPage(base: string, count: number): Promise<{ page: number; token: string; walkMs: number }> {
  const page = Math.min(101, Math.floor(count / 1000));
  const started = process.hrtime.bigint();
  let token = '';
  for (let i = 1; i < page; i++) {
    const answer = await getJson<{ metadata: { continue: string } }>(listUrl(base, token ? { limit: '500', continue: token } : { limit: '500' }));
    token = answer.metadata.continue;
  }
  return { page, token, walkMs: since(started) / (page - 1) };
}

/** Time from a create to the watch's first event, on a watch of all Deployments from the newest resourceVersion. */
async function watchFromNewest(base: string, count: number): Promise<Timing> {
  return timed(count, async (n) => {
    const list = await getJson<{ metadata: { resourceVersion: string } }>(listUrl(base, { limit: '1' }));
    const abort = new AbortController();
    const response = await fetch(listUrl(base, { watch: 'true', resourceVersion: list.metadata.resourceVersion }), { signal: abort.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await createDeployment(base, 'scale-watch', `watched-${n}`);
    const { value } = await reader.read();
    if (!value || !Buffer.from(value).toString().includes('"ADDED"')) throw new Error(`watch: unexpected first chunk ${Buffer.from(value ?? []).toString()}`);
    abort.abort();
  }, 2);
}

async function unpagedList(server: ServerProcess): Promise<Figures['unpaged']> {
  const started = process.hrtime.bigint();
  try {
    const { before, peak, result: bytes } = await peakRssDuring(server, async () => {
      const response = await fetch(`${server.url}${API}/deployments`);
      if (response.status !== 200) throw new Error(`unpaged list: ${response.status}`);
      return drain(response);
    });
    return { before, peak, bytes, seconds: since(started) / 1000, load: loadavg()[0] };
  } catch (error) {
    return { failed: (error as Error).message };
  }
}

async function tableSizes(sql: Client): Promise<Sizes> {
  const { rows } = await sql.query<{ objects: string; change_log: string }>(
    `SELECT pg_total_relation_size('objects') AS objects, pg_total_relation_size('change_log') AS change_log`,
  );
  return { objects: Number(rows[0].objects), change_log: Number(rows[0].change_log) };
}

/**
 * One compaction by a server started with an interval of a second, until the horizon reaches `through` (it removes a
 * batch per transaction, each raising the horizon): from its start (compacted_at, the run's time) to the last commit.
 */
async function compaction(cluster: Cluster, sql: Client, through: bigint): Promise<{ server: ServerProcess; compaction: Figures['compaction'] }> {
  const count = async () => Number((await sql.query<{ n: string }>('SELECT count(*) AS n FROM change_log')).rows[0].n);
  const before = await count();
  const { server } = await restart(cluster, COMPACTING);
  const deadline = Date.now() + COMPACTION_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const { rows } = await sql.query<{ compacted_at: Date | null; through: string }>('SELECT compacted_at, compacted_through AS through FROM change_log_compaction');
    if (rows[0].compacted_at && BigInt(rows[0].through) >= through) {
      const ms = Date.now() - rows[0].compacted_at.getTime();
      return { server, compaction: { removed: before - (await count()), ms, load: loadavg()[0] } };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { server, compaction: { removed: before - (await count()), ms: NaN, load: loadavg()[0] } };
}

async function vacuum(sql: Client, base: string, count: number): Promise<Figures['vacuum']> {
  const sizesBefore = await tableSizes(sql);
  const getBefore = await timed(300, getOne(base, count), 20);
  const pageBefore = await listTiming(base, LIST_CASES.first.query, 50);
  const started = process.hrtime.bigint();
  await sql.query('VACUUM (ANALYZE) objects, change_log, change_log_previous_versions');
  const ms = since(started);
  return {
    ms,
    sizesBefore,
    sizesAfter: await tableSizes(sql),
    getBefore,
    getAfter: await timed(300, getOne(base, count), 20),
    pageBefore,
    pageAfter: await listTiming(base, LIST_CASES.first.query, 50),
  };
}

/** Which latencies of `figures` exceed 1.2× the smallest size's, by name, with the requests that repeat them. */
function missedLatencies(smallest: Figures, figures: Figures, base: string, laterToken: string) {
  const work = {
    GET: () => timed(300, getOne(base, figures.objects), 0),
    'first page': () => listTiming(base, LIST_CASES.first.query, 30),
    'later page': () => listTiming(base, { limit: '500', continue: laterToken }, 30),
    'label page': () => listTiming(base, LIST_CASES.label.query, 30),
    watch: () => watchFromNewest(base, 10),
  };
  const pairs = { GET: 'get', 'first page': 'firstPage', 'later page': 'laterPage', 'label page': 'labelPage', watch: 'watch' } as const;
  return Object.entries(pairs)
    .filter(([, field]) => figures[field].p99 > 1.2 * smallest[field].p99)
    .map(([name]) => ({ name, work: work[name as keyof typeof work] }));
}

async function measure(count: number, smallest?: Figures): Promise<Figures> {
  const cluster = await Cluster.start(1, MEASURING);
  const sql = new Client({ connectionString: cluster.databaseUrl });
  await sql.connect();
  try {
    // no autovacuum of the loaded tables while measuring: VACUUM's effect is measured on its own
    await sql.query('ALTER TABLE objects SET (autovacuum_enabled = off); ALTER TABLE change_log SET (autovacuum_enabled = off)');
    const template = await storedTemplate(cluster.servers[0].url, sql);
    await cluster.remove(cluster.servers[0]);
    console.log(`${count}: copying…`);
    const { seconds: loadSeconds, newest: newestLoaded } = await load(sql, template, count);
    console.log(`${count}: copied in ${loadSeconds.toFixed(0)} s; ${JSON.stringify(await tableSizes(sql))}`);
    const { server, readyMs } = await restart(cluster, MEASURING);
    const startRss = server.rss();
    const base = server.url;
    await checkLoaded(base, count);
    console.log(`${count}: ready in ${readyMs.toFixed(0)} ms, RSS ${mib(startRss)}`);
    const get = await timed(300, getOne(base, count), 20);
    const firstPage = await listTiming(base, LIST_CASES.first.query, 50);
    const middle = await walkToLaterPage(base, count);
    const laterCase = { name: `page ${middle.page} of 500 (continue token)`, query: { limit: '500', continue: middle.token } };
    const laterPage = { ...(await listTiming(base, laterCase.query, 50)), page: middle.page, walkMs: middle.walkMs };
    const labelPage = await listTiming(base, LIST_CASES.label.query, 50);
    if (labelPage.items !== 500) throw new Error(`the label selection's page has ${labelPage.items} items, not 500: are the loaded labels in object_labels?`);
    const watch = await watchFromNewest(base, 20);
    console.log(`${count}: GET ${JSON.stringify(get)} first ${JSON.stringify(firstPage)} later ${JSON.stringify(laterPage)} label ${JSON.stringify(labelPage)} watch ${JSON.stringify(watch)}`);
    const plans = [];
    for (const c of [LIST_CASES.first, laterCase, LIST_CASES.label]) {
      const examined = await examineList(sql, DEPLOYMENTS, undefined, c.query);
      plans.push({ name: c.name, text: examined.statement.text, plan: examined.plan, executionMs: examined.executionMs });
    }
    const figures = { objects: count, loadSeconds, readyMs, startRss, get, firstPage, laterPage, labelPage, watch, plans, profiles: [] } as unknown as Figures;
    for (const missed of smallest ? missedLatencies(smallest, figures, base, middle.token) : []) {
      console.log(`${count}: profiling ${missed.name}…`);
      figures.profiles.push({ name: missed.name, summary: await profileWork(cluster, () => missed.work().then(() => undefined)) });
    }
    figures.unpaged = await unpagedList(server);
    console.log(`${count}: unpaged ${JSON.stringify(figures.unpaged)}`);
    await cluster.remove(server);
    const compacted = await compaction(cluster, sql, newestLoaded);
    figures.compaction = compacted.compaction;
    console.log(`${count}: compaction ${JSON.stringify(figures.compaction)}`);
    figures.vacuum = await vacuum(sql, compacted.server.url, count);
    console.log(`${count}: vacuum ${JSON.stringify(figures.vacuum)}`);
    return figures;
  } finally {
    await sql.end();
    await cluster.stop();
  }
}

const ms = (t: Timing) => `${t.p99.toFixed(1)} (p50 ${t.p50.toFixed(1)})`;
const ratio = (large: number, small: number, limit?: number) =>
  `${(large / small).toFixed(2)}×${limit === undefined ? '' : large <= limit * small ? ' (met)' : ' (missed)'}`;
const unpagedPeak = (f: Figures) => ('failed' in f.unpaged ? NaN : f.unpaged.peak);

function report(all: Figures[], machine: string): string {
  const [small, large] = [all[0], all[all.length - 1]];
  const sizes = all.map((f) => f.objects.toLocaleString('en-US'));
  const latency = (name: string, pick: (f: Figures) => Timing) => [name, ...all.map((f) => `${ms(pick(f))}, load ${pick(f).load.toFixed(2)}`), ratio(pick(large).p99, pick(small).p99, 1.2)];
  const unpaged = (f: Figures) =>
    'failed' in f.unpaged ? `failed: ${f.unpaged.failed}` : `${mib(f.unpaged.peak)} (before ${mib(f.unpaged.before)}; ${mib(f.unpaged.bytes)} in ${f.unpaged.seconds.toFixed(1)} s, load ${f.unpaged.load.toFixed(2)})`;
  const rows = [
    ['copy (SQL COPY, then the indexes built), s', ...all.map((f) => f.loadSeconds), ratio(large.loadSeconds, small.loadSeconds)],
    ['restart until /readyz, ms (target ≤ 5,000)', ...all.map((f) => f.readyMs), `${ratio(large.readyMs, small.readyMs)}${large.readyMs <= 5000 ? ' (met)' : ' (missed)'}`],
    ['server RSS when ready', ...all.map((f) => mib(f.startRss)), ratio(large.startRss, small.startRss)],
    latency('GET, p99 ms', (f) => f.get),
    latency('first page of 500, p99 ms', (f) => f.firstPage),
    latency('later page of 500 (continue token), p99 ms', (f) => f.laterPage),
    ['walk to that page, ms per page', ...all.map((f) => `${f.laterPage.walkMs.toFixed(1)} (page ${f.laterPage.page})`), ratio(large.laterPage.walkMs, small.laterPage.walkMs)],
    latency('1 % label selection, first page of 500, p99 ms', (f) => f.labelPage),
    latency('watch from the newest version: create → first event, p99 ms', (f) => f.watch),
    ['one unpaged list of every Deployment: peak server RSS', ...all.map(unpaged), ratio(unpagedPeak(large), unpagedPeak(small), 1.2)],
    ['compaction of the change log (rows removed, ms)', ...all.map((f) => `${f.compaction.removed.toLocaleString('en-US')} in ${f.compaction.ms.toFixed(0)} ms, load ${f.compaction.load.toFixed(2)}`), ratio(large.compaction.ms, small.compaction.ms)],
    ['VACUUM (ANALYZE) after the compaction, ms', ...all.map((f) => f.vacuum.ms), ratio(large.vacuum.ms, small.vacuum.ms)],
    ['objects + change_log on disk, before → after VACUUM', ...all.map((f) => `${mib(f.vacuum.sizesBefore.objects)} + ${mib(f.vacuum.sizesBefore.change_log)} → ${mib(f.vacuum.sizesAfter.objects)} + ${mib(f.vacuum.sizesAfter.change_log)}`), ''],
    ['GET p99 ms, before → after VACUUM', ...all.map((f) => `${f.vacuum.getBefore.p99.toFixed(1)} → ${f.vacuum.getAfter.p99.toFixed(1)}`), ''],
    ['first page p99 ms, before → after VACUUM', ...all.map((f) => `${f.vacuum.pageBefore.p99.toFixed(1)} → ${f.vacuum.pageAfter.p99.toFixed(1)}`), ''],
  ];
  return [
    machine,
    `- each size in its own scratch database: one Deployment made through the API, then ${sizes.join(' and ')} copies of its stored row (objects, its ADDED change-log row and its rows of object_labels; own name, namespace of ${NAMESPACES}, uid, label \`shard\` s0…s99, resourceVersion from the sequence) with SQL COPY, triggers off, the secondary indexes dropped during the copy and built anew after it; ANALYZE; autovacuum off on both tables (VACUUM is measured on its own); the server restarted; three copies read back through the API equal the original but for their own fields`,
    '- latencies: sequential requests from the harness after warm-up (300 GETs, 50 of each list); "load" is the 1-minute load average at the end of the measure (2 cores shared with other sessions)',
    `- the change log holds every loaded object's ADDED change, dated ${LOADED_AGO_MS / 3600_000} h back (beyond the retention of an hour): the compactor removes them all in one run; its time is from the run's start (compacted_at) to its commit seen by the harness`,
    '',
    table(['measure', ...sizes, `ratio ${sizes[sizes.length - 1]} / ${sizes[0]} (target)`], rows),
  ].join('\n');
}

function details(large: Figures): string {
  return [
    `### Plans at ${large.objects.toLocaleString('en-US')} (EXPLAIN (ANALYZE, BUFFERS) of the statements the server runs, built by \`listStatement\`)`,
    '',
    ...large.plans.map((p) => `#### ${p.name}\n\n\`\`\`\n${p.text.replace(/\n\s+/g, '\n  ')}\n\n${p.plan}\n\`\`\``),
    '',
    ...large.profiles.flatMap(({ name, summary }) => [`### CPU profile of the server at ${large.objects.toLocaleString('en-US')}: ${name} (missed its target)`, '', profileTables(summary, 15), '']),
  ].join('\n');
}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) throw new Error('bench:scale needs DATABASE_URL, a PostgreSQL on which it may create scratch databases as a superuser');
  const all: Figures[] = [];
  for (const count of SIZES) all.push(await measure(count, all[0]));
  const summary = report(all, await describeMachine(process.env.DATABASE_URL));
  writeSection('A million objects: `npm run bench:scale`', `${summary}\n\n${details(all[all.length - 1])}`);
  console.log(`\n${summary}\nwritten to bench/results/latest.md`);
}

runBenchmark(main);
