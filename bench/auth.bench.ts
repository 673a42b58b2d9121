/**
 * `npm run bench:auth`: the server CPU time of one GET on the secure port (TLS, bearer-token authentication, an
 * audit event at Metadata level into the log file and the table) against the same GET on the insecure port (no
 * TLS, no authentication, not audited), with authorization out of the way (AlwaysAllow; bench:rbac measures it).
 * Target: at most 1.3 times. `BENCH_AUDIT_DATABASE=false` leaves the table out, to see what each sink costs.
 */
import { statSync } from 'node:fs';
import { Client } from 'pg';
import { createDeployment } from './support/deployment';
import { describeMachine, formatNumber, table, writeSection } from './support/results';
import { runBenchmark } from './support/run';
import { startSecureCluster } from './support/secure-cluster';
import { measureInTurns } from './support/turns';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 16;
const TOKEN = 'bench-token';
/** a second user, whom the policy does not audit: TLS and authentication without audit */
const QUIET_TOKEN = 'quiet-token';
const PATH = '/apis/extensions/v1beta1/namespaces/bench/deployments/web';
const TARGET = 1.3;
const ROUNDS = 5;

runBenchmark(async () => {
  // the insecure port's user is not audited, so that its GETs are the baseline without audit; nor is `quiet`
  const policy = 'apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules:\n  - level: None\n    users: ["system:unsecured", quiet]\n  - level: Metadata\n';
  const secured = await startSecureCluster('auth', `${TOKEN},bench,1,"benchers"\n${QUIET_TOKEN},quiet,2\n`, { 'policy.yaml': policy }, (path) => ({
    AUDIT_POLICY_FILE: path('policy.yaml'),
    AUDIT_LOG_PATH: path('audit.log'),
    AUDIT_DATABASE: process.env.BENCH_AUDIT_DATABASE ?? 'true',
    AUTHORIZATION_MODE: 'AlwaysAllow',
  }));
  const { cluster, secureUrl } = secured;
  try {
    const server = cluster.servers[0];
    await createDeployment(server.url, 'bench', 'web');

    const [insecure, unaudited, secure] = await measureInTurns(
      server,
      [
        { url: server.url, path: PATH, headers: {} },
        { url: secureUrl, path: PATH, headers: { authorization: `Bearer ${QUIET_TOKEN}` } },
        { url: secureUrl, path: PATH, headers: { authorization: `Bearer ${TOKEN}` } },
      ],
      { seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS },
    );
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the last batches written (a batch waits a second at most)
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
        `Audit events written: ${formatNumber(rows[0].n)} rows in audit_events, ${formatNumber(statSync(secured.path('audit.log')).size / 1024)} KiB of log file.`,
    ].join('\n');
    console.log(body);
    writeSection('Authentication and audit: GET on the secure port against the insecure port', body);
  } finally {
    await secured.stop();
  }
});
