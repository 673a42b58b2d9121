import fc from 'fast-check';
import { Client } from 'pg';
import { http } from './support/http';
import { collectionPath, KINDS } from './support/kinds';
import { FuzzRequest, send, toCurl } from './support/fuzz/fuzz-request';
import { answerProblem, isDryRun, mayWrite } from './support/fuzz/invariants';
import { fuzzRequest } from './support/fuzz/request-arbitraries';
import { createNamespaces } from './support/namespaces';
import { ServerProcess } from './support/server-process';
import { startServerProcess } from './support/test-server-process';
import { createTestDatabase, dropTestDatabase, WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';
import { NOT_CONTROLLER_LEASE } from './support/default-policy';
import { RELAXED_READ_DELAY_MS } from '../src/watch/change-feed.service';

/**
 * Generated requests against a server process: no 5xx, every error a Status of its own code, nothing written by a
 * request answered with an error or asked as a dry run, and the server up with bounded memory at the end.
 * `npm run fuzz -- --runs N` runs longer (FUZZ_RUNS); FUZZ_SEED replays a run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
/** The server's resident memory may not pass this, whatever it was sent. */
const RSS_LIMIT_BYTES = 1024 * 1024 * 1024;

jest.setTimeout(Math.max(300_000, RUNS * 200));

let server: ServerProcess;
let databaseUrl: string;
let db: Client;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  server = await startServerProcess({ DATABASE_URL: databaseUrl, GC_SWEEP_INTERVAL_SECONDS: '3600', CLUSTER_MONITOR_PERIOD: '1h', ...WITHOUT_DEPLOYMENT_CONTROLLER });
  db = new Client({ connectionString: databaseUrl });
  await db.connect();
  await createNamespaces(server.url, ['fuzz']);
  // objects for the generated reads and writes to meet, and a change log that starts past resourceVersion 1
  for (const k of KINDS) {
    const created = await http(server.url, 'POST', collectionPath(k), { body: k.manifest });
    expect(created.status).toBe(201);
  }
});

afterAll(async () => {
  await db?.end();
  await server?.stop();
  if (databaseUrl) await dropTestDatabase(databaseUrl);
});

/** The newest change the change log holds, and how many it holds: what any write moves. */
async function changeLogMark(): Promise<string> {
  const { rows } = await db.query(`SELECT count(*)::text AS n, COALESCE(max(resource_version), 0)::text AS newest FROM change_log WHERE ${NOT_CONTROLLER_LEASE}`);
  return `${rows[0].n}@${rows[0].newest}`;
}

/** Objects marked for deletion whose finalizers the garbage collector itself removes (it will write them soon). */
async function pendingCollection(): Promise<number> {
  const { rows } = await db.query(
    `SELECT count(*)::int AS n FROM objects
     WHERE body->'metadata' ? 'deletionTimestamp' AND body->'metadata'->'finalizers' ?| array['orphan', 'foregroundDeletion']`,
  );
  return rows[0].n;
}

/**
 * Waits until what a real write set going (the garbage collector finishing a deletion) has settled: the change log
 * unchanged for longer than the garbage collector may take to read a change (it reads them relaxed).
 */
async function settled(): Promise<string> {
  const poll = 40;
  let mark = await changeLogMark();
  let stableMs = 0;
  for (let i = 0; i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, poll));
    const next = await changeLogMark();
    stableMs = next === mark ? stableMs + poll : 0;
    if (stableMs > RELAXED_READ_DELAY_MS && (await pendingCollection()) === 0) return mark;
    mark = next;
  }
  return mark;
}

it(`answers ${RUNS} generated requests within the invariants`, async () => {
  let mark = await changeLogMark();
  const seen = { writes: 0, dryRuns: 0, errors: 0 };
  const property = fc.asyncProperty(fuzzRequest, async (request: FuzzRequest) => {
    const replay = `\n  replay: ${toCurl(server.url, request)}`;
    const response = await send(server.url, request).catch((error: Error) => {
      throw new Error(`${error.message}${replay}`);
    });
    const problem = answerProblem(request, response);
    if (problem) throw new Error(`${problem}${replay}`);
    if (response.status >= 400) seen.errors++;
    else if (request.method !== 'GET' && request.method !== 'HEAD') seen[isDryRun(request) ? 'dryRuns' : 'writes']++;
    if (mayWrite(request, response)) {
      mark = await settled();
      return;
    }
    const after = await changeLogMark();
    if (after !== mark) {
      const { rows } = await db.query(
        `SELECT resource_version, event_type, resource, namespace, name FROM change_log WHERE resource_version > $1 AND ${NOT_CONTROLLER_LEASE} ORDER BY 1`,
        [mark.split('@')[1]],
      );
      const changes = rows.map((r) => `${r.resource_version} ${r.event_type} ${r.resource} ${r.namespace}/${r.name}`).join('; ');
      throw new Error(`answered ${response.status} but the change log moved (${mark} → ${after}: ${changes})${replay}`);
    }
  });
  await fc.assert(property, { numRuns: RUNS, seed: SEED });
  // the run reached the store, not only the edge: writes and dry runs were served, not all refused
  process.stdout.write(`fuzz: ${RUNS} requests, ${JSON.stringify(seen)}\n`);
  expect(seen.writes).toBeGreaterThan(0);
  expect(seen.dryRuns).toBeGreaterThan(0);

  const health = await send(server.url, { method: 'GET', path: '/healthz', query: '', headers: {} });
  expect(health.status).toBe(200);
  expect(server.rss()).toBeLessThan(RSS_LIMIT_BYTES);
});
