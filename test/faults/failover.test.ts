import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { Client } from 'pg';
import { freePort } from '../support/global-setup';
import { HaTopology } from '../support/ha-topology';
import { ServerProcess } from '../support/server-process';
import { startServerProcess } from '../support/test-server-process';
import { Workload } from './workload';

/**
 * The fault suite (`npm run test:faults`): the HA topology of deploy/ha as its up.sh brings it up (three PostgreSQL
 * 15 nodes under Patroni with a strict synchronous standby, etcd, HAProxy on Patroni's /primary check) and three
 * pgkube instances over HAProxy's primary port. Writers, a watcher and a /readyz prober go through every instance
 * while each fault happens; after each: every acknowledged write is stored with the resourceVersion it was answered
 * with, no resourceVersion names two different changes, every watcher was shown each acknowledged write exactly once
 * (or was told 410 and relisted it), no write answered with an error is stored, there is no 500 (only 201, 503, 504),
 * and /readyz is unready while writes fail. The last fault makes replication asynchronous and promotes a standby
 * that is behind: there the acknowledged writes it lacks are lost (counted, at least one), and the checks are that each
 * watcher ends up showing exactly what the new primary holds (relisting after 410), that the versions handed out
 * after the promotion are above every one served before, and that none names two changes. The seconds the API was
 * unwritable are printed (and written to the file FAULTS_FIGURES names, for bench/failover.bench.ts); they are
 * figures, not assertions.
 */
jest.setTimeout(300_000);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let topology: HaTopology;
const ports: number[] = [];
const instances: ServerProcess[] = [];
const figures: Record<string, number> = {};

const startInstance = (i: number) => startServerProcess({ DATABASE_URL: topology.primaryUrl, PORT: String(ports[i]) });
const urls = () => ports.map((port) => `http://127.0.0.1:${port}`);

beforeAll(async () => {
  topology = await HaTopology.up();
  for (let i = 0; i < 3; i++) ports.push(await freePort());
  for (let i = 0; i < 3; i++) instances.push(await startInstance(i));
});

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
  await topology?.down();
  console.log(`unwritable seconds per fault: ${JSON.stringify(figures)}`);
  if (process.env.FAULTS_FIGURES) writeFileSync(process.env.FAULTS_FIGURES, JSON.stringify(figures, null, 2));
});

async function sql<T>(statement: string, values: unknown[] = [], url = topology.primaryUrl): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(statement, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** name → resourceVersion of the round's ConfigMaps stored on the (current) primary. */
async function stored(id: string): Promise<Map<string, string>> {
  const rows = await sql<{ name: string; rv: string }>(
    "SELECT name, resource_version::text AS rv FROM objects WHERE api_group = '' AND resource = 'configmaps' AND namespace = 'default' AND name LIKE $1",
    [`${id}-%`],
  );
  return new Map(rows.map((r) => [r.name, r.rv]));
}

/** What a fault took away: an instance (its writes may get no answer), or the history after two points in time. */
interface Outcome {
  instance?: number;
  /** an asynchronous standby was promoted: acknowledged writes between the two may be lost */
  rewound?: { killedAt: number; promotedAt: number };
}

/**
 * One round: the workload runs 2 s, `inject` makes the fault, then once the cluster is whole again and writes are
 * acknowledged for 2 s more the workload stops and is checked.
 */
async function round(id: string, inject: () => Promise<Outcome>): Promise<void> {
  await topology.untilHealthy();
  const workload = new Workload(urls(), id);
  await pause(2000);
  const faultAt = Date.now();
  const { instance: lost, rewound } = await inject();
  await topology.untilHealthy();
  const deadline = Date.now() + 60_000;
  while (!workload.acknowledged().some((a) => a.at > Date.now() - 500) && Date.now() < deadline) await pause(100);
  await pause(2000);
  // after a lost history the watchers are to show what the new primary holds, acknowledged or not
  await workload.stop(rewound && (async () => [...(await stored(id)).keys()]));

  const answers = workload.answers;
  const statuses: Record<number, number> = {};
  for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  const unwritable = workload.unwritableSeconds(faultAt);
  figures[id] = Number(unwritable.seconds.toFixed(2));
  console.log(
    `${id}: ${answers.length} creates, answers ${JSON.stringify(statuses)}; unwritable ${unwritable.seconds.toFixed(2)} s; ` +
      `watchers reopened ${workload.watchers.map((w) => w.reopened).join('/')}, relisted ${workload.watchers.map((w) => w.relists).join('/')}`,
  );
  const lastError = answers.filter((a) => a.status >= 500).at(-1);
  if (lastError) console.log(`${id}: last error answer ${lastError.status} ${lastError.text?.slice(0, 300)}`);

  // Only a created object, "unavailable, retry" or "outcome unknown"; no answer at all only from an instance killed.
  expect(answers.filter((a) => ![201, 503, 504].includes(a.status) && !(a.status === 0 && a.instance === lost)).map((a) => `${a.name}: ${a.status} ${a.text}`)).toEqual([]);
  const objects = await stored(id);
  const acknowledged = workload.acknowledged();
  expect(acknowledged.length).toBeGreaterThan(0);
  const missing = acknowledged.filter((a) => objects.get(a.name) !== a.resourceVersion);
  if (rewound) {
    // Lost: acknowledged writes the promoted standby had not received, all answered after the fault began and before
    // the promotion (earlier ones were synchronous; the standbys had them before they stopped receiving).
    console.log(`${id}: ${missing.length} acknowledged writes lost`);
    expect(missing.length).toBeGreaterThan(0);
    expect(missing.filter((a) => a.at < faultAt || a.sentAt > rewound.promotedAt).map((a) => `${a.name}@${a.resourceVersion}: ${objects.get(a.name)}`)).toEqual([]);
    // Versions handed out after the promotion are above every version served before the primary was lost.
    const before = acknowledged.filter((a) => a.at < rewound.killedAt).reduce((max, a) => (BigInt(a.resourceVersion as string) > max ? BigInt(a.resourceVersion as string) : max), 0n);
    expect(acknowledged.filter((a) => a.sentAt > rewound.promotedAt && BigInt(a.resourceVersion as string) <= before).map((a) => `${a.name}@${a.resourceVersion} <= ${before}`)).toEqual([]);
  } else {
    // Every acknowledged write is stored, with the resourceVersion it was answered with.
    expect(missing.map((a) => `${a.name}@${a.resourceVersion}: ${objects.get(a.name)}`)).toEqual([]);
  }
  // No write answered with a failure is stored (504, "outcome unknown", may be either).
  expect(answers.filter((a) => a.status === 503 && objects.has(a.name)).map((a) => a.name)).toEqual([]);
  // No resourceVersion names two different changes: across the answers, what the watchers were shown, and the table.
  const changes = new Map<string, string>();
  const reused: string[] = workload.watchers.flatMap((w) => w.reused);
  const note = (rv: string, name: string) => {
    if (changes.has(rv) && changes.get(rv) !== name) reused.push(`${rv}: ${changes.get(rv)} and ${name}`);
    changes.set(rv, name);
  };
  for (const [name, rv] of objects) note(rv, name);
  for (const a of acknowledged) note(a.resourceVersion as string, a.name);
  for (const w of workload.watchers) for (const [rv, name] of w.changes) note(rv, name);
  expect(reused).toEqual([]);
  for (const w of workload.watchers) {
    if (rewound) {
      // Each watcher shows exactly what the new primary holds: every stored object once, none of the lost ones.
      expect([...objects.keys()].filter((name) => w.counts.get(name) !== 1).map((name) => `${name}: ${w.counts.get(name) ?? 0}`)).toEqual([]);
      expect([...w.counts.keys()].filter((name) => !objects.has(name))).toEqual([]);
    } else {
      // Every watcher was shown each acknowledged write exactly once since its last (re)list.
      expect(acknowledged.filter((a) => w.counts.get(a.name) !== 1).map((a) => `${a.name}: ${w.counts.get(a.name) ?? 0}`)).toEqual([]);
    }
  }
  // Unready while unwritable: the probes sent a second into the gap and answered a second before its end.
  if (unwritable.seconds > 2) {
    const inside = workload.probes.filter((p) => p.instance !== lost && p.sentAt > unwritable.start + 1000 && p.at < unwritable.end - 1000);
    expect(inside.filter((p) => p.status === 200).map((p) => `instance ${p.instance} ready at +${p.sentAt - unwritable.start} ms`)).toEqual([]);
  }
}

const laterMember = async (role: string) => {
  const member = (await topology.members()).find((m) => m.role === role);
  if (!member) throw new Error(`no ${role}`);
  return member.name;
};

it('rides one instance losing its LISTEN connection', async () => {
  await round('listen-cut', async () => {
    const name = `pgkube ${hostname()}/${instances[2].pid}`.slice(0, 63);
    const cut = await sql<{ pid: number }>(
      "SELECT pg_terminate_backend(pid), pid FROM pg_stat_activity WHERE application_name = $1 AND (query LIKE 'LISTEN %' OR query = 'SELECT pg_backend_pid()')",
      [name],
    );
    expect(cut.length).toBe(1);
    return {};
  });
});

it('rides the SIGKILL of one pgkube instance', async () => {
  await round('instance-kill', async () => {
    await instances[1].stop('SIGKILL');
    await pause(2000);
    instances[1] = await startInstance(1);
    return { instance: 1 };
  });
});

it('rides a planned patronictl switchover to the synchronous standby', async () => {
  await round('switchover', async () => {
    await topology.switchover(await laterMember('sync_standby'));
    return {};
  });
});

it("rides the SIGKILL of the primary's PostgreSQL (Patroni promotes the synchronous standby)", async () => {
  await round('primary-postgres-kill', async () => {
    topology.killPostgres(await topology.leader());
    return {};
  });
});

/** Kills the leader's host, waits until another node leads, and starts the lost host's Patroni again. */
async function loseLeaderHost(): Promise<{ killedAt: number; promotedAt: number }> {
  const leader = await topology.leader();
  const killedAt = Date.now();
  topology.killHost(leader);
  // the host comes back once another node leads: its Patroni rejoins it as a standby
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && ((await topology.leader().catch(() => leader)) === leader)) await pause(250);
  const promotedAt = Date.now();
  topology.restartPatroni(leader);
  return { killedAt, promotedAt };
}

it('rides the loss of the primary host (its Patroni killed with its PostgreSQL)', async () => {
  await round('primary-host-lost', async () => {
    await loseLeaderHost();
    return {};
  });
});

// Last: it changes the cluster's configuration for its time (and restores it).
it('promotes an asynchronous standby that is behind: lost writes are never served as current, versions never reused', async () => {
  await round('async-standby-behind', async () => {
    // asynchronous replication, and a standby however far behind may be promoted
    await topology.configure({ synchronous_mode: false, maximum_lag_on_failover: 1 << 30 });
    const leader = await topology.leader();
    const onLeader = <T>(statement: string) => sql<T>(statement, [], topology.nodeUrl(leader));
    const deadline = Date.now() + 30_000;
    while ((await onLeader<{ names: string }>('SELECT current_setting(\'synchronous_standby_names\') AS names'))[0].names !== '') {
      if (Date.now() > deadline) throw new Error('Patroni did not turn synchronous replication off');
      await pause(200);
    }
    // both standbys have every write acknowledged so far (those before the fault were synchronous on one of them)
    const [{ lsn }] = await onLeader<{ lsn: string }>('SELECT pg_current_wal_flush_lsn()::text AS lsn');
    while ((await onLeader<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_replication WHERE flush_lsn >= '${lsn}'::pg_lsn`))[0].n < 2) {
      if (Date.now() > deadline) throw new Error('the standbys did not catch up');
      await pause(200);
    }
    expect(topology.stopWalSenders(leader)).toBe(2);
    // acknowledged writes that only the primary holds
    await pause(3000);
    const rewound = await loseLeaderHost();
    await topology.configure({ synchronous_mode: true, maximum_lag_on_failover: 1048576 });
    return { rewound };
  });
});
