import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoad } from './support/load';
import { describeMachine, table, writeSection } from './support/results';

/**
 * `npm run bench:failover`: the HA topology of deploy/ha as its up.sh brings it up (three PostgreSQL 15 nodes under
 * Patroni, etcd, HAProxy, three pgkube instances from dist/), and the write throughput through HAProxy's API port with
 * the synchronous standby Patroni keeps (strict) and, alternating in the same run, with synchronous replication
 * switched off (`patronictl edit-config`). With FAULTS_FIGURES naming the figures file of a fault-suite run (`FAULTS_FIGURES=f npm
 * run test:faults`), its unwritable seconds per fault go into the section too.
 */
const ROOT = join(__dirname, '..', '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = 16;
const BASE = Number(process.env.HA_PORT_BASE ?? 25400);
const API = `http://127.0.0.1:${BASE + 32}`;
const PRIMARY = `postgres://postgres@127.0.0.1:${BASE + 30}/postgres`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const dir = mkdtempSync(join(tmpdir(), 'pgkube-ha-bench-'));
chmodSync(dir, 0o755);
const env = { ...process.env, HA_DIR: dir, HA_PORT_BASE: String(BASE), HA_INSTANCES: '3' };
const patronictl = (...args: string[]) => execFileSync('patronictl', ['-c', join(dir, 'node1.yml'), ...args], { encoding: 'utf8' });

async function creates(label: string) {
  return runLoad({
    url: API,
    connections: CONNECTIONS,
    seconds: SECONDS,
    request: (n) => ({
      method: 'POST',
      path: '/api/v1/namespaces/default/configmaps',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${label}-${n}` }, data: { n: String(n) } }),
    }),
  });
}

/** Switches synchronous replication on (strict) or off with patronictl, and waits until Patroni has done it. */
async function replication(synchronous: boolean): Promise<void> {
  patronictl('edit-config', '--force', '-s', `synchronous_mode=${synchronous}`, '-s', `synchronous_mode_strict=${synchronous}`);
  while (patronictl('list', '-f', 'json').includes('Sync Standby') !== synchronous) await pause(250);
  await pause(2000);
}

async function main(): Promise<void> {
  execFileSync('bash', [join(ROOT, 'deploy', 'ha', 'up.sh')], { env, stdio: 'inherit' });
  try {
    // Alternating, twice each, so that the machine's changing load (it is shared) weighs on both alike.
    const runs: [string, Awaited<ReturnType<typeof creates>>][] = [];
    for (const round of [1, 2]) {
      for (const synchronous of [true, false]) {
        await replication(synchronous);
        const result = await creates(`${synchronous ? 'sync' : 'async'}-${round}`);
        const label = synchronous ? 'synchronous (strict, one synchronous standby)' : 'asynchronous';
        console.log(`${label}: ${result.rps.toFixed(0)} creates/s, ${JSON.stringify(result.statuses)}`);
        runs.push([label, result]);
      }
    }
    const mean = (synchronous: boolean) => {
      const rates = runs.filter(([label]) => label.startsWith('synchronous') === synchronous).map(([, r]) => r.rps);
      return rates.reduce((sum, rate) => sum + rate, 0) / rates.length;
    };
    const faults = process.env.FAULTS_FIGURES && existsSync(process.env.FAULTS_FIGURES) ? (JSON.parse(readFileSync(process.env.FAULTS_FIGURES, 'utf8')) as Record<string, number>) : undefined;
    writeSection(
      'Failover (issue 33)',
      [
        await describeMachine(PRIMARY),
        '- topology: `deploy/ha/up.sh` — etcd (one member), three PostgreSQL 15 nodes under Patroni 3.0.2 (ttl 8, loop_wait 1, retry_timeout 3, primary_start_timeout 0, no replication slots, the standbys streaming through HAProxy), HAProxy on `/primary` (inter 500ms downinter 100ms fall 1 rise 1, retries 0), three pgkube instances behind HAProxy; everything on the one machine',
        '',
        faults
          ? [
              'Seconds the API was unwritable per fault (`npm run test:faults`: the longest time between two acknowledged creates of',
              '9 writers, 3 per instance; targets with 3 Patroni nodes: primary PostgreSQL SIGKILLed ≤ 4 s, switchover ≤ 2 s, lost host ≤ 12 s):',
              '',
              table(['fault', 'unwritable s'], Object.entries(faults).map(([fault, seconds]) => [fault, seconds])),
              '',
              "The faults: one instance's LISTEN connection terminated, one instance SIGKILLed (and started again), `patronictl",
              "switchover` to the synchronous standby, the primary's PostgreSQL SIGKILLed (its Patroni promotes the synchronous",
              'standby), the primary host lost (its Patroni SIGKILLed with its PostgreSQL), and, with replication made asynchronous,',
              'the primary host lost while its standbys were behind (a lagging one promoted). These figures come from the fault-suite run',
              'named by FAULTS_FIGURES (on the same machine, not this run); the suite asserts correctness, not these seconds.',
              '',
            ].join('\n')
          : '',
        `Write throughput through HAProxy's API port (${CONNECTIONS} connections creating ConfigMaps for ${SECONDS} s each, the two modes alternating in the same run):`,
        '',
        table(
          ['replication', 'creates/s', 'p50 ms', 'p99 ms', 'answers'],
          runs.map(([label, r]) => [label, r.rps, r.p50, r.p99, JSON.stringify(r.statuses)]),
        ),
        '',
        `Mean of the rounds: ${mean(true).toFixed(0)} creates/s with the synchronous standby against ${mean(false).toFixed(0)} without ` +
          `(${(mean(true) / mean(false)).toFixed(2)}×): a commit waits for the standby's flush as well as its own, on the same two cores here.`,
      ].join('\n'),
    );
  } finally {
    execFileSync('bash', [join(ROOT, 'deploy', 'ha', 'down.sh'), '--purge'], { env, stdio: 'inherit' });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
