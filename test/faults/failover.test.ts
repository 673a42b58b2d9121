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
 * and /readyz is unready while writes fail. The seconds the API was unwritable are printed (and written to the file
 * FAULTS_FIGURES names, for bench/failover.bench.ts); they are figures, not assertions.
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

async function sql<T>(statement: string, values: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: topology.primaryUrl });
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

/**
 * One round: the workload runs 2 s, `inject` makes the fault (and returns the instance it took away, if any), then
 * once the cluster is whole again and writes are acknowledged for 2 s more the workload stops and is checked.
 */
async function round(id: string, inject: () => Promise<number | undefined>): Promise<void> {
  await topology.untilHealthy();
  const workload = new Workload(urls(), id);
  await pause(2000);
  const faultAt = Date.now();
  const lost = await inject();
  await topology.untilHealthy();
  const deadline = Date.now() + 60_000;
  while (!workload.acknowledged().some((a) => a.at > Date.now() - 500) && Date.now() < deadline) await pause(100);
  await pause(2000);
  await workload.stop();

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
  // Every acknowledged write is stored, with the resourceVersion it was answered with.
  expect(acknowledged.filter((a) => objects.get(a.name) !== a.resourceVersion).map((a) => `${a.name}@${a.resourceVersion}: ${objects.get(a.name)}`)).toEqual([]);
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
  // Every watcher was shown each acknowledged write exactly once since its last (re)list.
  for (const w of workload.watchers) expect(acknowledged.filter((a) => w.counts.get(a.name) !== 1).map((a) => `${a.name}: ${w.counts.get(a.name) ?? 0}`)).toEqual([]);
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
    return undefined;
  });
});

it('rides the SIGKILL of one pgkube instance', async () => {
  await round('instance-kill', async () => {
    await instances[1].stop('SIGKILL');
    await pause(2000);
    instances[1] = await startInstance(1);
    return 1;
  });
});

it('rides a planned patronictl switchover to the synchronous standby', async () => {
  await round('switchover', async () => {
    await topology.switchover(await laterMember('sync_standby'));
    return undefined;
  });
});

it("rides the SIGKILL of the primary's PostgreSQL (Patroni promotes the synchronous standby)", async () => {
  await round('primary-postgres-kill', async () => {
    topology.killPostgres(await topology.leader());
    return undefined;
  });
});

it('rides the loss of the primary host (its Patroni killed with its PostgreSQL)', async () => {
  await round('primary-host-lost', async () => {
    const leader = await topology.leader();
    topology.killHost(leader);
    // the host comes back once another node leads: its Patroni rejoins it as a standby
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && ((await topology.leader().catch(() => leader)) === leader)) await pause(250);
    topology.restartPatroni(leader);
    return undefined;
  });
});
