/**
 * `npm run bench:workers`: one server process (WORKERS 1) beside a primary with two workers (WORKERS 2) over the
 * same PostgreSQL, taking turns under 64 clients: GETs and creates of ~1 KB Deployments, requests/s and CPU per
 * request of the server processes (the primary and its workers together) and of PostgreSQL, and how many of the
 * machine's cores each part kept busy, which says what bounds the scaling.
 */
import { cpus } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';
import { cpuMsOf, treeCpuMs } from '../test/support/process-cpu';
import { ServerProcess } from '../test/support/server-process';
import { createDeployment, deployment } from './support/deployment';
import { LoadRequest, runLoad } from './support/load';
import { describeMachine, table, writeSection } from './support/results';
import { runBenchmark } from './support/run';
import { Cluster } from './support/server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const ROUNDS = 4;
const CONNECTIONS = 64;
const OBJECTS = 200;
const NAMESPACE = 'bench-workers';
const COLLECTION = `/apis/extensions/v1beta1/namespaces/${NAMESPACE}/deployments`;
const WARM_UP_SECONDS = 2;
/** a worker counts as serving once it spent this much CPU in one warm-up */
const WORKER_WARM_CPU_MS = 100;
const WARM_UP_LIMIT_MS = 120_000;

type Verb = 'get' | 'create';

/** A server under test: its process model and how to read the CPU of all its processes. */
interface Side {
  workers: number;
  process: ServerProcess;
  cpuMs(): number;
  /** the worker processes (none for one process) */
  workerPids: number[];
}

/** The processes the primary forked: its workers (it runs no PostgreSQL of its own here: DATABASE_URL is given). */
function workerPidsOf(primary: number): number[] {
  const parentOf = (pid: number) => {
    try {
      return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
    } catch {
      return undefined; // gone
    }
  };
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => parentOf(pid) === primary);
}

/** Warms a side up until each of its workers has served (spent CPU) in one warm-up: only then do all take connections. */
async function warmUp(side: Side, request: (n: number) => LoadRequest): Promise<void> {
  const deadline = Date.now() + WARM_UP_LIMIT_MS;
  for (;;) {
    const before = side.workerPids.map(cpuMsOf);
    await runLoad({ url: side.process.url, connections: CONNECTIONS, seconds: WARM_UP_SECONDS, request });
    const spent = side.workerPids.map((pid, i) => cpuMsOf(pid) - before[i]);
    if (spent.every((ms) => ms >= WORKER_WARM_CPU_MS)) return;
    if (Date.now() > deadline) throw new Error(`workers ${side.workerPids.join(', ')} did not all serve: CPU ms ${spent.join(', ')}`);
  }
}

async function main(): Promise<void> {
  const cluster = await Cluster.start(1, { env: { WORKERS: '1' } });
  try {
    const single = cluster.servers[0];
    const primary = await cluster.add({ env: { WORKERS: '2' } });
    const sides: Side[] = [
      { workers: 1, process: single, cpuMs: () => single.cpuMs(), workerPids: [single.pid] },
      // the primary's own time, its workers' now, and that of workers that ended (none unless one died)
      { workers: 2, process: primary, cpuMs: () => treeCpuMs(primary.pid), workerPids: workerPidsOf(primary.pid) },
    ];
    if (sides[1].workerPids.length !== 2) throw new Error(`the primary has ${sides[1].workerPids.length} workers, not 2`);
    const names: string[] = [];
    for (let i = 0; i < OBJECTS; i++) {
      names.push(`get-${i}`);
      await createDeployment(single.url, NAMESPACE, `get-${i}`);
    }
    let created = 0;
    const requests: Record<Verb, (n: number) => LoadRequest> = {
      get: () => ({ method: 'GET', path: `${COLLECTION}/${names[Math.floor(Math.random() * names.length)]}` }),
      create: () => ({ method: 'POST', path: COLLECTION, body: JSON.stringify(deployment(`create-${created++}`)) }),
    };
    for (const side of sides) await warmUp(side, requests.get);

    const verbs: Verb[] = ['get', 'create'];
    const totals = new Map(verbs.flatMap((verb) => sides.map((side) => [`${verb} ${side.workers}`, { ok: 0, seconds: 0, serverMs: 0, postgresMs: 0, loadMs: 0, p50s: [] as number[] }])));
    for (let round = 0; round < ROUNDS; round++) {
      for (const verb of verbs) {
        for (const side of sides) {
          const before = { server: side.cpuMs(), postgres: cluster.postgresCpuMs() ?? 0, load: process.cpuUsage() };
          const result = await runLoad({ url: side.process.url, connections: CONNECTIONS, seconds: SECONDS / ROUNDS, request: requests[verb] });
          if (result.errors > 0) throw new Error(`${verb}, ${side.workers} workers: ${result.errors} failed requests (${JSON.stringify(result.statuses)})`);
          const load = process.cpuUsage(before.load);
          const total = totals.get(`${verb} ${side.workers}`)!;
          total.ok += result.ok;
          total.seconds += SECONDS / ROUNDS;
          total.serverMs += side.cpuMs() - before.server;
          total.postgresMs += (cluster.postgresCpuMs() ?? 0) - before.postgres;
          total.loadMs += (load.user + load.system) / 1000;
          total.p50s.push(result.p50);
        }
      }
    }

    const rows = [...totals].map(([key, t]) => {
      const [verb, workers] = key.split(' ');
      const busy = (ms: number) => ms / 1000 / t.seconds;
      const postgres = cluster.postgresCpuMs() === undefined ? undefined : (t.postgresMs * 1000) / t.ok;
      return {
        verb,
        workers: Number(workers),
        rps: t.ok / t.seconds,
        cells: [
          verb,
          workers,
          t.ok / t.seconds,
          (t.serverMs * 1000) / t.ok,
          postgres,
          t.p50s.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)],
          busy(t.serverMs),
          cluster.postgresCpuMs() === undefined ? undefined : busy(t.postgresMs),
          busy(t.loadMs),
        ],
      };
    });
    const scaling = verbs.map((verb) => {
      const [one, two] = [1, 2].map((n) => rows.find((row) => row.verb === verb && row.workers === n)!.rps);
      return `- ${verb}: ${(two / one).toFixed(2)}× the requests/s with 2 workers`;
    });
    const body = [
      await describeMachine(cluster.databaseUrl),
      `- ${CONNECTIONS} clients on the insecure port, ${SECONDS} s a form in ${ROUNDS} interleaved turns, after warm-ups in which every worker served; GETs of ${OBJECTS} Deployments, creates of new ones; one PostgreSQL for both`,
      `- server CPU: the single process, or the primary and both workers; cores busy: CPU seconds a second of each part (the load generator is this benchmark's process), of ${cpus().length}`,
      '',
      table(
        ['verb', 'workers', 'requests/s', 'server CPU µs/request', 'PostgreSQL CPU µs/request', 'p50 ms', 'server cores busy', 'PostgreSQL cores busy', 'load generator cores busy'],
        rows.map((row) => row.cells),
      ),
      '',
      ...scaling,
    ].join('\n');
    console.log(body);
    writeSection('Workers: one process and two (`--workers 2`)', body);
  } finally {
    await cluster.stop();
  }
}

runBenchmark(main);
