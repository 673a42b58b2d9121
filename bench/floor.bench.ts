/**
 * `npm run bench:floor`: server CPU per request of pgkube on its secure port (TLS, a bearer token, RBAC, audit at
 * Metadata level, as a production server runs) against the floor (bench/support/floor-server.ts: the same stack,
 * storage statements and transport doing only what each verb cannot skip), the two taken in turn on the same
 * PostgreSQL, 64 clients, with PostgreSQL's CPU per request beside each. Targets: GET ≤ 1.3×, create ≤ 2.0×, replace
 * and patch ≤ 2.5× the floor's server CPU; a page of 500, and a watch's initial events over 500 objects (a watch
 * without resourceVersion, ended by its timeoutSeconds): server and PostgreSQL CPU together ≤ 0.6× the floor's.
 * BENCH_VERBS (e.g. `page,watch`) runs only the verbs whose names start with one of its words. For each verb that
 * misses its target, a CPU profile of pgkube under the same load says where its time goes (BENCH_PROFILES=0: none).
 */
import { join } from 'node:path';
import { freePort } from '../test/support/global-setup';
import { ServerProcess } from '../test/support/server-process';
import { profileTables, profileWork } from './support/cpu-profile';
import { deployment } from './support/deployment';
import { LoadRequest, runLoad } from './support/load';
import { describeMachine, formatNumber, table, writeSection } from './support/results';
import { runBenchmark } from './support/run';
import { SecureCluster, startSecureCluster } from './support/secure-cluster';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const ROUNDS = 3;
/** when the measured part of a round starts */
const WINDOW_START_MS = 2000;
const CONNECTIONS = 64;
const OBJECTS = 600;
const PAGE = 500;
const TOKEN = 'bench-token';
const MERGE_PATCH = 'application/merge-patch+json';
/** the load a verb's profile samples (after as long a warm-up) */
const PROFILE_SECONDS = 5;

type Verb = 'GET' | 'create' | 'replace' | 'patch' | `page of ${typeof PAGE}` | `watch of ${typeof PAGE}`;

/** What a verb may cost against the floor, and whether PostgreSQL's CPU counts with the server's. */
const TARGETS: Record<Verb, { ratio: number; withPostgres: boolean }> = {
  GET: { ratio: 1.3, withPostgres: false },
  create: { ratio: 2.0, withPostgres: false },
  replace: { ratio: 2.5, withPostgres: false },
  patch: { ratio: 2.5, withPostgres: false },
  [`page of ${PAGE}`]: { ratio: 0.6, withPostgres: true },
  [`watch of ${PAGE}`]: { ratio: 0.6, withPostgres: true },
};
const only = process.env.BENCH_VERBS?.split(',');
/** BENCH_PROFILES=0 skips the profiles of the verbs that miss their targets (for before/after pairs) */
const PROFILES = process.env.BENCH_PROFILES !== '0';
const VERBS = (Object.keys(TARGETS) as Verb[]).filter((verb) => !only || only.some((word) => verb.startsWith(word)));

interface Side {
  name: string;
  process: ServerProcess;
  url: string;
  headers: Record<string, string>;
  collection: string;
}

function requests(side: Side, round: string): Record<Verb, (n: number) => LoadRequest> {
  const headers = side.headers;
  const existing = (n: number) => `${side.collection}/web-${n % OBJECTS}`;
  return {
    GET: (n) => ({ method: 'GET', path: existing(n * 7919), headers }),
    create: (n) => ({ method: 'POST', path: side.collection, body: JSON.stringify(deployment(`c${round}-${n}`)), headers }),
    replace: (n) => ({ method: 'PUT', path: existing(n), body: JSON.stringify(deployment(`web-${n % OBJECTS}`, {}, `r${round}-${n}`)), headers }),
    patch: (n) => ({
      method: 'PATCH',
      path: existing(n),
      body: JSON.stringify({ metadata: { annotations: { 'bench.pgkube.io/revision': `p${round}-${n}` } } }),
      headers: { ...headers, 'content-type': MERGE_PATCH },
    }),
    [`page of ${PAGE}`]: () => ({ method: 'GET', path: `${side.collection}?limit=${PAGE}`, headers }),
    // its initial events, then nothing until the timeout ends it (a second: the clients are kept busy by the others)
    [`watch of ${PAGE}`]: () => ({ method: 'GET', path: `${watched(side)}?watch=1&timeoutSeconds=1`, headers }),
  };
}

/** The collection a side's watches list: PAGE objects in a namespace of their own, which the creates do not add to. */
const watched = (side: Side) => side.collection.replace(/\/namespaces\/([^/]+)\//, '/namespaces/$1-watched/');

/** Creates web-0 … web-(count-1) in a side's collection, eight at a time. */
async function fill(side: Side, collection: string, count: number): Promise<void> {
  let next = 0;
  const create = async (name: string) => {
    const body = JSON.stringify(deployment(name));
    const response = await fetch(`${side.url}${collection}`, { method: 'POST', headers: { 'content-type': 'application/json', ...side.headers }, body });
    if (response.status !== 201) throw new Error(`${side.name}: create of ${name}: ${response.status} ${await response.text()}`);
  };
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < count) await create(`web-${next++}`);
  }));
}

let profileRuns = 0;

/**
 * Where pgkube's time goes for a verb: one more server like the measured one, run with `node --cpu-prof`, under the
 * same load on its own secure port.
 */
async function profileVerb(secured: SecureCluster, measured: Side, verb: Verb): Promise<string> {
  const securePort = await freePort();
  const summary = await profileWork(
    secured.cluster,
    async (server) => {
      const side = { ...measured, process: server, url: `https://127.0.0.1:${securePort}` };
      const request = requests(side, `p${++profileRuns}`)[verb];
      const result = await runLoad({ url: side.url, connections: CONNECTIONS, seconds: PROFILE_SECONDS, request });
      if (result.errors > 0) throw new Error(`${verb} while profiled: ${result.errors} failed (${JSON.stringify(result.statuses)})`);
    },
    { ...secured.settings, SECURE_PORT: String(securePort) },
  );
  return ['', `### CPU profile of pgkube: ${verb} (target missed)`, '', `${CONNECTIONS} clients for ${PROFILE_SECONDS} s on the secure port of a server run with \`node --cpu-prof\`.`, '', profileTables(summary, 20)].join('\n');
}

runBenchmark(async () => {
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0'; // the floor's health check, over the cluster's self-signed certificate
  const policy = 'apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules:\n  - level: Metadata\n';
  const secured = await startSecureCluster('floor', `${TOKEN},bench,1,"system:masters"\n`, { 'policy.yaml': policy }, (path) => ({
    AUDIT_POLICY_FILE: path('policy.yaml'),
    AUDIT_LOG_PATH: path('audit.log'),
    AUTHORIZATION_MODE: 'RBAC',
  }));
  const { cluster, secureUrl } = secured;
  const floorPort = await freePort();
  const floor = ServerProcess.spawn({
    entry: join(__dirname, 'support', 'floor-server.js'),
    env: {
      PATH: process.env.PATH,
      FLOOR_DATABASE_URL: cluster.databaseUrl,
      FLOOR_PORT: String(floorPort),
      FLOOR_CERT: secured.path('certs/apiserver.crt'),
      FLOOR_KEY: secured.path('certs/apiserver.key'),
    },
  });
  try {
    const floorUrl = `https://127.0.0.1:${floorPort}`;
    await floor.untilHealthy(floorUrl, 30_000);
    const server = cluster.servers[0];
    const sides: Side[] = [
      { name: 'pgkube', process: server, url: secureUrl, headers: { authorization: `Bearer ${TOKEN}` }, collection: '/apis/extensions/v1beta1/namespaces/bench/deployments' },
      { name: 'floor', process: floor, url: floorUrl, headers: {}, collection: '/apis/extensions/v1beta1/namespaces/floor/deployments' },
    ];
    for (const side of sides) {
      await fill(side, side.collection, OBJECTS);
      await fill(side, watched(side), PAGE);
    }

    const rows: (string | number)[][] = [];
    const missed: Verb[] = [];
    for (const verb of VERBS) {
      const totals = sides.map(() => ({ serverMs: 0, postgresMs: 0, ok: 0, seconds: 0 }));
      for (let round = -1; round < ROUNDS; round++) {
        for (const s of round % 2 === 0 ? [0, 1] : [1, 0]) {
          const side = sides[s];
          const request = requests(side, `${round + 1}`)[verb];
          // measured from 2 s in to just before the clients stop, while as many requests are under way at its end as at
          // its start (a page of 500 or a watch takes a while, and those unanswered when the clients stop are not counted)
          let answered = 0;
          const reading = () => ({ server: side.process.cpuMs(), postgres: cluster.postgresCpuMs() ?? 0, answered });
          const seconds = round < 0 ? 2 : SECONDS / ROUNDS;
          const readings = [reading(), reading()];
          const timers = [setTimeout(() => (readings[0] = reading()), WINDOW_START_MS), setTimeout(() => (readings[1] = reading()), seconds * 1000 - 250)];
          const result = await runLoad({ url: side.url, connections: CONNECTIONS, seconds, request, answered: () => answered++ });
          timers.forEach(clearTimeout);
          if (result.errors > 0) throw new Error(`${verb} through ${side.name}: ${result.errors} failed (${JSON.stringify(result.statuses)})`);
          if (round < 0) continue; // warm-up
          const [start, end] = readings;
          totals[s].serverMs += end.server - start.server;
          totals[s].postgresMs += end.postgres - start.postgres;
          totals[s].ok += end.answered - start.answered;
          totals[s].seconds += (seconds * 1000 - 250 - WINDOW_START_MS) / 1000;
        }
      }
      const [ours, floors] = totals.map((t) => ({ server: (t.serverMs * 1000) / t.ok, postgres: (t.postgresMs * 1000) / t.ok, rps: t.ok / t.seconds }));
      const { ratio: target, withPostgres } = TARGETS[verb];
      const ratio = withPostgres ? (ours.server + ours.postgres) / (floors.server + floors.postgres) : ours.server / floors.server;
      if (ratio > target) missed.push(verb);
      rows.push([
        verb,
        formatNumber(ours.server),
        formatNumber(floors.server),
        formatNumber(ours.postgres),
        formatNumber(floors.postgres),
        formatNumber(ours.rps),
        formatNumber(floors.rps),
        `**${ratio.toFixed(2)}×** (≤ ${target}×${withPostgres ? ', server and PostgreSQL' : ''}: ${ratio <= target ? 'met' : 'not met'})`,
      ]);
      console.log(rows[rows.length - 1].join(' | '));
    }
    const profiles: string[] = [];
    if (PROFILES) for (const verb of missed) profiles.push(await profileVerb(secured, sides[0], verb));
    const section = [
      await describeMachine(cluster.databaseUrl),
      `- pgkube on its secure port (TLS, a bearer token, RBAC, audit at Metadata level to a file and the table) and the floor (bench/support/floor-server.ts: Fastify and \`pg\` over the same tables and TLS certificate, running pgkube's group commit, grouped reads and page statement, nothing else), each with ${OBJECTS} Deployments of about 1 KB in a namespace of its own (and ${PAGE} more in another, which the watches list)`,
      `- ${CONNECTIONS} clients; for each verb ${SECONDS} s of each side in ${ROUNDS} rounds taken in turn (the order alternating), after 2 s of each not counted; each round is measured from its third second to 0.25 s before its end, in a steady state (the responses and the CPU of that window: requests under way at either end are not counted, which matters for pages and watches that take a while)`,
      "- server CPU is each process's user+system time from /proc; PostgreSQL's is its processes' (the embedded PostgreSQL's only: blank on DATABASE_URL's)",
      '',
      table(['verb', 'pgkube: server CPU µs', 'floor: server CPU µs', 'pgkube: PostgreSQL CPU µs', 'floor: PostgreSQL CPU µs', 'pgkube: requests/s', 'floor: requests/s', 'pgkube / floor'], rows),
      ...profiles,
    ].join('\n');
    writeSection('Cost per request against the floor (`npm run bench:floor`)', section);
    console.log(section);
  } finally {
    await floor.stop();
    await secured.stop();
  }
});
