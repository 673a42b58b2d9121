/**
 * `npm run bench:auth`: the server CPU time of one GET on the secure port (TLS, bearer-token authentication, an
 * audit event at Metadata level into the log file and the table) against the same GET on the insecure port (no
 * TLS, no authentication, not audited). Target: at most 1.3 times. `BENCH_AUDIT_DATABASE=false` leaves the table
 * out, to see what each sink costs.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from '../test/support/global-setup';
import { deployment } from './support/deployment';
import { runLoad } from './support/load';
import { describeMachine, formatNumber, table, writeSection } from './support/results';
import { runBenchmark } from './support/run';
import { Cluster } from './support/server';
import { ServerProcess } from '../test/support/server-process';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 16;
const TOKEN = 'bench-token';
/** a second user, whom the policy does not audit: TLS and authentication without audit */
const QUIET_TOKEN = 'quiet-token';
const PATH = '/apis/extensions/v1beta1/namespaces/bench/deployments/web';
const TARGET = 1.3;
const ROUNDS = 5;

interface Target {
  url: string;
  headers: Record<string, string>;
}

/**
 * CPU µs per request, requests/s and p50 of GETs of one Deployment at each target, after a warm-up of each: the
 * targets take turns in short rounds, so that all of them meet the same state of a shared machine.
 */
async function measure(server: ServerProcess, targets: Target[]) {
  const load = ({ url, headers }: Target, seconds: number) =>
    runLoad({ url, connections: CONNECTIONS, seconds, request: () => ({ method: 'GET', path: PATH, headers }) });
  for (const target of targets) await load(target, 2);
  const totals = targets.map(() => ({ cpuMs: 0, ok: 0, seconds: 0, p50s: [] as number[] }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, target] of targets.entries()) {
      const before = server.cpuMs();
      const result = await load(target, SECONDS / ROUNDS);
      if (result.errors > 0) throw new Error(`${target.url}: ${result.errors} failed requests (${JSON.stringify(result.statuses)})`);
      totals[i].cpuMs += server.cpuMs() - before;
      totals[i].ok += result.ok;
      totals[i].seconds += SECONDS / ROUNDS;
      totals[i].p50s.push(result.p50);
    }
  }
  return totals.map((t) => ({ cpuUs: (t.cpuMs * 1000) / t.ok, rps: t.ok / t.seconds, p50: t.p50s.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)] }));
}

runBenchmark(async () => {
  const files = mkdtempSync(join(tmpdir(), 'pgkube-bench-auth-'));
  writeFileSync(join(files, 'tokens.csv'), `${TOKEN},bench,1,"benchers"\n${QUIET_TOKEN},quiet,2\n`);
  // the insecure port's user is not audited, so that its GETs are the baseline without audit; nor is `quiet`
  writeFileSync(
    join(files, 'policy.yaml'),
    'apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules:\n  - level: None\n    users: ["system:unsecured", quiet]\n  - level: Metadata\n',
  );
  const securePort = await freePort();
  const auditLog = join(files, 'audit.log');
  const cluster = await Cluster.start(1, {
    env: {
      SECURE_PORT: String(securePort),
      BIND_ADDRESS: '127.0.0.1',
      CERT_DIR: join(files, 'certs'),
      TOKEN_AUTH_FILE: join(files, 'tokens.csv'),
      AUDIT_POLICY_FILE: join(files, 'policy.yaml'),
      AUDIT_LOG_PATH: auditLog,
      AUDIT_DATABASE: process.env.BENCH_AUDIT_DATABASE ?? 'true',
    },
  });
  try {
    const server = cluster.servers[0];
    const created = await fetch(`${server.url}/apis/extensions/v1beta1/namespaces/bench/deployments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(deployment('web')),
    });
    if (created.status !== 201) throw new Error(`create: ${created.status}`);

    const secureUrl = `https://127.0.0.1:${securePort}`;
    const [insecure, unaudited, secure] = await measure(server, [
      { url: server.url, headers: {} },
      { url: secureUrl, headers: { authorization: `Bearer ${QUIET_TOKEN}` } },
      { url: secureUrl, headers: { authorization: `Bearer ${TOKEN}` } },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 500)); // the last batches written
    const db = new Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM kube.audit WHERE username = 'bench'");
    await db.end();

    const ratio = secure.cpuUs / insecure.cpuUs;
    const body = [
      await describeMachine(cluster.databaseUrl),
      `- ${CONNECTIONS} connections, ${SECONDS} s of each form in ${ROUNDS} rounds taken in turn, after a 2 s warm-up of each; GET of one Deployment; HTTP/1.1 (autocannon) on both ports`,
      '',
      table(
        ['port', 'server CPU µs/request', 'requests/s', 'p50 ms'],
        [
          ['insecure (HTTP, no authentication, not audited)', formatNumber(insecure.cpuUs), formatNumber(insecure.rps), formatNumber(insecure.p50)],
          ['secure (TLS, token), not audited', formatNumber(unaudited.cpuUs), formatNumber(unaudited.rps), formatNumber(unaudited.p50)],
          ['secure (TLS, token, Metadata audit to file and table)', formatNumber(secure.cpuUs), formatNumber(secure.rps), formatNumber(secure.p50)],
        ],
      ),
      '',
      `Secure/insecure CPU per request: **${ratio.toFixed(2)}×** (target ≤ ${TARGET}×: ${ratio <= TARGET ? 'met' : 'not met'}). ` +
        `Audit events written: ${formatNumber(rows[0].n)} rows in audit_events, ${formatNumber(statSync(auditLog).size / 1024)} KiB of log file.`,
    ].join('\n');
    console.log(body);
    writeSection('Authentication and audit: GET on the secure port against the insecure port', body);
  } finally {
    await cluster.stop();
    rmSync(files, { recursive: true, force: true });
  }
});
