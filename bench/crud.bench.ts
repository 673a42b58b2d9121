/**
 * `npm run bench`: create, get, replace, patch, list and delete of ~1 KB Deployments at 1/16/64 clients, beside the
 * ceiling of the same SQL run by pgbench (one write to a transaction, and batched as the server's group commit
 * batched the creates), the puts of an etcd (when installed), a CPU profile of creates, and a Secret GET (encrypted
 * at rest) against a ConfigMap GET of the same size (bench/support/secret-get.ts) and a GET and a create through
 * apps/v1 against extensions/v1beta1 (bench/support/api-versions.ts), sections of their own.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { profileTables, profileWork } from './support/cpu-profile';
import { deployment } from './support/deployment';
import { Etcd, etcdPut } from './support/etcd';
import { LoadRequest, LoadResult, runLoad } from './support/load';
import { replayScript, runPgbench } from './support/pgbench';
import { describeMachine, table, writeSection } from './support/results';
import { runBenchmark } from './support/run';
import { Cluster } from './support/server';
import { CapturedStatement } from './support/sql-capture';
import { compareSecretGets } from './support/secret-get';
import { compareApiVersions } from './support/api-versions';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARM_UP_SECONDS = 3;
const LEVELS = [1, 16, 64];
const COLLECTION = '/apis/extensions/v1beta1/namespaces/bench/deployments';
const LIST_NAMESPACE = 'bench-list';
const LIST_SIZE = 20;
const MERGE_PATCH = 'application/merge-patch+json';

type Verb = 'create' | 'get' | 'replace' | 'patch' | 'list' | 'delete';

const json = (value: unknown) => JSON.stringify(value);

async function send(base: string, request: LoadRequest): Promise<{ status: number; body: string }> {
  const response = await fetch(`${base}${request.path}`, {
    method: request.method,
    body: request.body,
    headers: { 'content-type': 'application/json', ...request.headers },
  });
  return { status: response.status, body: await response.text() };
}

/**
 * The requests of each verb at one concurrency level: creates of objects named `<prefix>-<n>`, the other verbs on
 * the objects the creates made (`existing`, read back after them, as autocannon may skip counter values).
 */
function verbRequests(prefix: string, existing: () => string[]): Record<Verb, (n: number) => LoadRequest> {
  const pick = (n: number) => existing()[n % existing().length];
  return {
    create: (n) => ({ method: 'POST', path: COLLECTION, body: json(deployment(`${prefix}-${n}`)) }),
    get: () => ({ method: 'GET', path: `${COLLECTION}/${pick(Math.floor(Math.random() * existing().length))}` }),
    replace: (n) => ({ method: 'PUT', path: `${COLLECTION}/${pick(n)}`, body: json(deployment(pick(n), {}, `r${n}`)) }),
    patch: (n) => ({
      method: 'PATCH',
      path: `${COLLECTION}/${pick(n)}`,
      body: json({ metadata: { annotations: { 'bench.pgkube.io/revision': `p${n}` } } }),
      headers: { 'content-type': MERGE_PATCH },
    }),
    list: () => ({ method: 'GET', path: `/apis/extensions/v1beta1/namespaces/${LIST_NAMESPACE}/deployments` }),
    delete: (n) => ({ method: 'DELETE', path: `${COLLECTION}/${pick(n)}` }),
  };
}

/** The names of the objects in the benchmark's namespace that start with `<prefix>-`. */
async function namesOf(base: string, prefix: string): Promise<string[]> {
  const { body } = await send(base, { method: 'GET', path: COLLECTION });
  const list = JSON.parse(body) as { items: { metadata: { name: string } }[] };
  return list.items.map((item) => item.metadata.name).filter((name) => name.startsWith(`${prefix}-`));
}

/** The server's count and sum of write batches so far (none from a server without group commit). */
async function writeBatches(base: string): Promise<{ count: number; sum: number }> {
  const { body } = await send(base, { method: 'GET', path: '/metrics' });
  const value = (name: string) => Number(body.match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1] ?? 0);
  return { count: value('pgkube_storage_write_batch_size_count'), sum: value('pgkube_storage_write_batch_size_sum') };
}

/** True when the server answers a merge patch (another change adds PATCH; until then it is 405). */
async function supportsPatch(base: string): Promise<boolean> {
  await send(base, { method: 'POST', path: COLLECTION, body: json(deployment('patch-probe')) });
  const { status } = await send(base, verbRequests('patch', () => ['patch-probe']).patch(0));
  return status !== 405;
}

/** Statements the server sends PostgreSQL for one request, recorded by a server started with the SQL recorder. */
async function captureStatements(cluster: Cluster, dir: string, requests: LoadRequest[]): Promise<CapturedStatement[][]> {
  const file = join(dir, 'captured.jsonl');
  const recorder = join(__dirname, 'support', 'sql-capture.js');
  const server = await cluster.add({ nodeArgs: ['--require', recorder], env: { SQL_CAPTURE_FILE: file } });
  const captured: CapturedStatement[][] = [];
  for (const request of requests) {
    writeFileSync(file, '');
    const { status, body } = await send(server.url, request);
    if (status >= 300) throw new Error(`capture request failed (${status}): ${body}`);
    const lines = readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
    // Only the statements on objects (reads, and the writes' pgkube_write_batch): the change feed's reads of
    // change_log run beside the request.
    captured.push(lines.map((line) => JSON.parse(line) as CapturedStatement).filter((s) => /\bobjects\b|pgkube_write_batch/.test(s.text)));
  }
  await cluster.remove(server);
  return captured;
}

/**
 * Every verb for a few seconds at 16 clients, on objects of their own, before anything is measured: a server just
 * started runs its code unoptimized and compiles it as it goes, which would otherwise be counted to the first level
 * (1 client) and show as its latency and CPU.
 */
async function warmUp(base: string, verbs: Verb[]): Promise<void> {
  let existing: string[] = [];
  const requests = verbRequests('warm', () => existing);
  for (const verb of verbs) {
    await runLoad({ url: base, connections: 16, seconds: WARM_UP_SECONDS, amount: verb === 'delete' ? existing.length : undefined, request: requests[verb] });
    if (verb === 'create') existing = await namesOf(base, 'warm');
  }
}

async function profileCreates(cluster: Cluster): Promise<string> {
  let rps = 0;
  let run = 0;
  const summary = await profileWork(cluster, async (server) => {
    const creates = verbRequests(`prof${run++}`, () => []).create; // new names in each run (the first warms up)
    const load = await runLoad({ url: server.url, connections: 16, seconds: SECONDS, request: creates });
    if (load.errors > 0) throw new Error(`creates failed while profiled: ${JSON.stringify(load.statuses)}`);
    rps = load.rps;
  });
  return [`Creates at 16 clients on a server run with \`node --cpu-prof\` (${Math.round(rps)} creates/s while profiled).`, '', profileTables(summary)].join('\n');
}

async function main(): Promise<void> {
  const started = Date.now();
  const cluster = await Cluster.start(1);
  const dir = mkdtempSync(join(cluster.workDir, 'crud-'));
  try {
    const [server] = cluster.servers;
    const base = server.url;
    for (let i = 0; i < LIST_SIZE; i++) {
      const path = `/apis/extensions/v1beta1/namespaces/${LIST_NAMESPACE}/deployments`;
      await send(base, { method: 'POST', path, body: json(deployment(`item-${i}`)) });
    }
    const patch = await supportsPatch(base);
    const verbs: Verb[] = ['create', 'get', 'replace', ...(patch ? (['patch'] as const) : []), 'list', 'delete'];
    await warmUp(base, verbs);
    const results = new Map<string, LoadResult & { cpuUs: number; postgresCpuUs?: number }>();
    /** the mean number of writes the server committed together while it ran the creates of each level */
    const createBatch = new Map<number, number>();
    for (const clients of LEVELS) {
      let existing: string[] = [];
      const requests = verbRequests(`c${clients}`, () => existing);
      for (const verb of verbs) {
        const cpuBefore = server.cpuMs();
        const postgresBefore = cluster.postgresCpuMs();
        const batchesBefore = await writeBatches(base);
        const result = await runLoad({
          url: base,
          connections: clients,
          seconds: SECONDS,
          amount: verb === 'delete' ? existing.length : undefined,
          request: requests[verb],
        });
        const perRequest = (ms: number) => (ms * 1000) / (result.ok + result.errors);
        const cpuUs = perRequest(server.cpuMs() - cpuBefore);
        const postgresAfter = cluster.postgresCpuMs();
        const postgresCpuUs = postgresBefore === undefined || postgresAfter === undefined ? undefined : perRequest(postgresAfter - postgresBefore);
        if (verb === 'create') {
          const batches = await writeBatches(base);
          createBatch.set(clients, batches.count > batchesBefore.count ? (batches.sum - batchesBefore.sum) / (batches.count - batchesBefore.count) : 1);
          existing = await namesOf(base, `c${clients}`);
        }
        results.set(`${verb}/${clients}`, { ...result, cpuUs, postgresCpuUs });
        console.log(`${verb.padEnd(8)} ${String(clients).padStart(3)} clients: ${Math.round(result.rps)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, server CPU ${Math.round(cpuUs)} µs/request, PostgreSQL CPU ${postgresCpuUs === undefined ? '–' : Math.round(postgresCpuUs)} µs/request, ${result.errors} errors ${result.errors ? JSON.stringify(result.statuses) : ''}`);
      }
    }

    // The ceiling: the server's own statements for a create and a replace, replayed by pgbench.
    const [createSql, replaceSql] = await captureStatements(cluster, dir, [
      { method: 'POST', path: COLLECTION, body: json(deployment('capture-object', {}, 'capture-rev-1')) },
      { method: 'PUT', path: `${COLLECTION}/capture-object`, body: json(deployment('capture-object', {}, 'capture-rev-2')) },
    ]);
    for (let i = 0; i < Math.max(...LEVELS); i++) {
      await send(base, { method: 'POST', path: COLLECTION, body: json(deployment(`pgb-${i}`)) });
    }
    const scripts = {
      create: replayScript(createSql, 'capture-object', 'capture-rev-1', `'pgb-' || :client_id::text || '-' || :n::text`),
      replace: replayScript(replaceSql, 'capture-object', 'capture-rev-2', `'pgb-' || :client_id::text`),
    };
    const ceiling = new Map<string, number>();
    for (const [operation, script] of Object.entries(scripts)) {
      for (const clients of LEVELS) {
        const result = await runPgbench(cluster.databaseUrl, script, clients, SECONDS);
        ceiling.set(`${operation}/${clients}`, result.tps);
        console.log(`pgbench ${operation} ${clients} clients: ${Math.round(result.tps)} tps, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms`);
      }
    }
    // The same creates as the server's group commit ran them: one transaction at a time (one instance), each of as
    // many creates as the server's batches held on average at that level.
    const batchedCeiling = new Map<number, { batch: number; rowsPerSecond: number }>();
    for (const clients of LEVELS) {
      const batch = Math.max(1, Math.round(createBatch.get(clients) ?? 1));
      const script = replayScript(createSql, 'capture-object', 'capture-rev-1', `'pgb-' || :client_id::text || '-' || :n::text`, batch);
      const result = await runPgbench(cluster.databaseUrl, script, 1, SECONDS);
      batchedCeiling.set(clients, { batch, rowsPerSecond: result.tps * batch });
      console.log(`pgbench create in batches of ${batch} (server at ${clients} clients): ${Math.round(result.tps * batch)} creates/s, p99 ${result.p99.toFixed(2)} ms a batch`);
    }

    // The peer: etcd puts of values of the same size (the stored body of a create).
    const etcdVersion = Etcd.version();
    const etcdPuts = new Map<number, LoadResult>();
    if (etcdVersion) {
      const value = createSql[0].values.find((v) => typeof v === 'string' && v.includes('capture-object')) as string;
      const etcd = await Etcd.start();
      try {
        for (const clients of LEVELS) {
          const result = await runLoad({
            url: etcd.url,
            connections: clients,
            seconds: SECONDS,
            request: (n) => ({ method: 'POST', path: '/v3/kv/put', body: etcdPut(`/registry/deployments/bench/c${clients}-${n}`, value) }),
          });
          etcdPuts.set(clients, result);
          console.log(`etcd put ${clients} clients: ${Math.round(result.rps)} puts/s, p99 ${result.p99.toFixed(2)} ms`);
        }
      } finally {
        await etcd.stop();
      }
    }

    const profile = await profileCreates(cluster);
    console.log(profile);

    const verbTable = table(
      ['verb', 'clients', 'requests/s', 'p50 ms', 'p99 ms', 'server CPU µs/request', 'PostgreSQL CPU µs/request', 'errors'],
      verbs.flatMap((verb) =>
        LEVELS.map((clients) => {
          const r = results.get(`${verb}/${clients}`) as LoadResult & { cpuUs: number; postgresCpuUs?: number };
          return [verb, clients, r.rps, r.p50, r.p99, r.cpuUs, r.postgresCpuUs, r.errors];
        }),
      ),
    );
    const ratioRows = LEVELS.flatMap((clients) => {
      const create = results.get(`create/${clients}`) as LoadResult;
      const replace = results.get(`replace/${clients}`) as LoadResult;
      const pgCreate = ceiling.get(`create/${clients}`) as number;
      const pgReplace = ceiling.get(`replace/${clients}`) as number;
      const put = etcdPuts.get(clients);
      const batched = batchedCeiling.get(clients) as { batch: number; rowsPerSecond: number };
      return [
        [
          `create`, clients, create.rps, pgCreate, `${Math.round((100 * create.rps) / pgCreate)} %`,
          createBatch.get(clients), batched.batch, batched.rowsPerSecond, `${Math.round((100 * create.rps) / batched.rowsPerSecond)} %`,
          put?.rps, put ? `${Math.round((100 * create.rps) / put.rps)} %` : undefined,
        ],
        [`replace`, clients, replace.rps, pgReplace, `${Math.round((100 * replace.rps) / pgReplace)} %`, undefined, undefined, undefined, undefined, undefined, undefined],
      ];
    });
    const ratioTable = table(
      ['operation', 'clients', 'API req/s', 'pgbench tps', 'API/pgbench', 'server batch (mean)', 'pgbench batch', 'batched pgbench creates/s', 'API/batched', 'etcd puts/s', 'API/etcd'],
      ratioRows,
    );
    const get64 = results.get('get/64') as LoadResult;
    const create64 = results.get('create/64') as LoadResult;
    const singleObject = verbs.filter((v) => v !== 'list');
    const worstP99 = Math.max(...singleObject.map((v) => (results.get(`${v}/16`) as LoadResult).p99));
    const bestCreateShare = Math.max(...LEVELS.map((c) => (results.get(`create/${c}`) as LoadResult).rps / (ceiling.get(`create/${c}`) as number)));
    const targets = [
      `- creates ≥ 75 % of the pgbench ceiling: ${Math.round(bestCreateShare * 100)} % at best (64 clients: ${Math.round((100 * create64.rps) / (ceiling.get('create/64') as number))} %)`,
      `- creates ≥ 75 % of the batched pgbench ceiling at 64 clients: ${Math.round((100 * create64.rps) / (batchedCeiling.get(64) as { rowsPerSecond: number }).rowsPerSecond)} %`,
      etcdPuts.size
        ? `- creates ≥ 100 % of etcd puts/s at 64 clients: ${Math.round((100 * create64.rps) / (etcdPuts.get(64) as LoadResult).rps)} %`
        : '- creates vs etcd: etcd not installed (`apt-get install etcd-server`)',
      `- GET ≥ 8,000 requests/s at 64 clients: ${Math.round(get64.rps)}`,
      `- p99 at 1 client (compare with the run before a change): create ${(results.get('create/1') as LoadResult).p99.toFixed(2)} ms, get ${(results.get('get/1') as LoadResult).p99.toFixed(2)} ms`,
      `- p99 of every single-object verb ≤ 50 ms at 16 clients: worst ${worstP99.toFixed(1)} ms`,
    ].join('\n');
    const statements = (captured: CapturedStatement[]) =>
      captured.map((s) => `    ${s.name ?? '(unnamed)'}: ${s.text.replace(/\s+/g, ' ')}`).join('\n');
    const section = [
      await describeMachine(cluster.databaseUrl),
      `- ${SECONDS} s per measurement, after ${WARM_UP_SECONDS} s of each verb at 16 clients (not measured) to warm the server up; one server process (\`node dist/main.js\`, pool ${process.env.DATABASE_POOL_SIZE ?? 'default'}) on ${process.env.DATABASE_URL ? 'the PostgreSQL of DATABASE_URL' : 'its embedded PostgreSQL'}; load from autocannon in the harness process; etcd ${etcdVersion ?? 'not installed'}`,
      '- server CPU: user+system time of the server process per request, from /proc (10 ms resolution; steadier than throughput on a shared machine); PostgreSQL CPU: the same of the embedded PostgreSQL (its postmaster and the processes it runs), – on the PostgreSQL of DATABASE_URL',
      `- objects: ~${json(deployment('c16-1234')).length}-byte Deployments (two containers); \`list\` reads a namespace of ${LIST_SIZE}; ${patch ? '`patch` is a JSON merge patch of an annotation' : '`patch`: skipped, the server answers PATCH with 405 (not implemented on this branch)'}`,
      '',
      '### Per verb',
      '',
      verbTable,
      '',
      '### Against the ceiling (pgbench, same SQL) and the peer (etcd)',
      '',
      'pgbench replays, as prepared statements with the same concurrency, the statements captured from the server ' +
        '(a server run with `bench/support/sql-capture`) for one create and one replace:',
      '',
      `- create:\n${statements(createSql)}`,
      `- replace:\n${statements(replaceSql)}`,
      '',
      'The batched ceiling replays the create as the server\'s group commit runs it: one transaction at a time (the ' +
        'server has one in flight), each holding as many creates as the server\'s batches did on average while its ' +
        'creates at that level ran (`pgkube_storage_write_batch_size`), between BEGIN and COMMIT; creates/s is ' +
        'transactions/s times the batch. A server without group commit reports no batches: batches of 1.',
      '',
      'Each pgbench transaction also runs one SELECT without table access that builds the varying parameters (a unique ' +
        'name, a new annotation), a round trip the API does not make, so the ceiling is slightly understated. etcd ' +
        'is driven through its JSON gateway (`POST /v3/kv/put`, base64 key and value of the same stored body), which ' +
        'costs it more than the gRPC the apiserver uses.',
      '',
      ratioTable,
      '',
      '### Targets',
      '',
      targets,
      '',
      '### CPU profile of the create path',
      '',
      profile,
      '',
      `Run took ${Math.round((Date.now() - started) / 1000)} s.`,
    ].join('\n');
    writeSection('CRUD: `npm run bench`', section);
    console.log(`\n${verbTable}\n\n${ratioTable}\n\n${targets}\n\nwritten to bench/results/latest.md`);
    console.log(await compareSecretGets(cluster));
    console.log(await compareApiVersions(cluster));
  } finally {
    await cluster.stop();
  }
}

runBenchmark(main);
