import { Client } from 'pg';
import { http } from './support/http';
import { kindNamed } from './support/kinds';
import { ServerProcess } from './support/server-process';
import { startServerProcess } from './support/test-server-process';
import { PrimaryProxy, ReplicatedPostgres } from './support/replicated-postgres';
import { WatchClient } from './support/watch-client';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

/**
 * One pgkube instance over a primary and a synchronous streaming standby (Debian's PostgreSQL 15), reached through a
 * TCP proxy that stands in for HAProxy. A COMMIT whose connection is lost gets its true outcome; the primary
 * SIGKILLed and the standby promoted costs some seconds of 503s, never a 500, never a wrong answer; /readyz is
 * unready while writes cannot commit; the watcher sees every acknowledged create exactly once.
 */
jest.setTimeout(120_000);

const COLLECTION = '/apis/extensions/v1beta1/namespaces/default/deployments';
const MANIFEST = kindNamed('Deployment').manifest;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let cluster: ReplicatedPostgres;
let proxy: PrimaryProxy;
let server: ServerProcess;

beforeAll(async () => {
  cluster = await ReplicatedPostgres.start(true);
  proxy = await PrimaryProxy.start(cluster.primary.port);
  // each write is the test's own, counted and judged: no deployment controller writes besides
  server = await startServerProcess({ DATABASE_URL: proxy.url(), ...WITHOUT_DEPLOYMENT_CONTROLLER });
});

afterAll(async () => {
  await server?.stop('SIGKILL');
  await proxy?.close();
  cluster?.stop();
});

const create = (name: string) => http(server.url, 'POST', COLLECTION, { body: { ...MANIFEST, metadata: { name } } });

async function storedNames(url: string): Promise<Set<string>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT name FROM objects WHERE api_group = 'extensions' AND resource = 'deployments'");
    return new Set(rows.map((r) => r.name as string));
  } finally {
    await client.end();
  }
}

async function setOnPrimary(url: string, statement: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query(statement);
  await client.query('SELECT pg_reload_conf()');
  await client.end();
}

const readyz = async () => (await http(server.url, 'GET', '/readyz').catch(() => undefined))?.status ?? 0;

it('answers a write whose COMMIT lost its connection with its true outcome, and is unready while commits wait', async () => {
  // The synchronous standby stops acknowledging: every COMMIT waits.
  await setOnPrimary(cluster.primary.url, "ALTER SYSTEM SET synchronous_standby_names = 'nobody'");
  const started = Date.now();
  const writes = ['lost-0', 'lost-1', 'lost-2'].map((name) => create(name));
  await pause(1500);
  expect(await readyz()).not.toBe(200);
  proxy.cut(); // the connections of the waiting COMMITs are lost; the transactions are committed locally
  await pause(2000);
  await setOnPrimary(cluster.primary.url, "ALTER SYSTEM SET synchronous_standby_names = 'standby'");
  const answers = await Promise.all(writes);
  const seconds = (Date.now() - started) / 1000;
  console.log(`COMMITs cut off while waiting for the standby: answers ${answers.map((a) => a.status).join(', ')} after ${seconds.toFixed(1)} s`);
  // Committed locally while their connections were lost: resolved by their fences once the standby is back.
  expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
  const stored = await storedNames(cluster.primary.url);
  expect(['lost-0', 'lost-1', 'lost-2'].every((name) => stored.has(name))).toBe(true);
  const deadline = Date.now() + 10_000;
  while ((await readyz()) !== 200 && Date.now() < deadline) await pause(100);
  expect(await readyz()).toBe(200);
});

it('answers a write batch it cannot learn the outcome of with 504 within its bound, never a second commit', async () => {
  // Commits wait for a standby that does not acknowledge. Four creates at once: the first goes alone, the others
  // wait for it and then go as one batch, which must not be committed again write by write (that would answer 409).
  // While the first is in flight the network to the primary goes silent: neither its answer nor any question about
  // it gets a reply, which must not hold the answer past its bound (5 s for the statement, 5 s to resolve it).
  await setOnPrimary(cluster.primary.url, "ALTER SYSTEM SET synchronous_standby_names = 'nobody'");
  const names = ['unknown-0', 'unknown-1', 'unknown-2', 'unknown-3'];
  const started = Date.now();
  const writes = names.map((name) => create(name).then((response) => ({ status: response.status, seconds: (Date.now() - started) / 1000 })));
  await pause(1000);
  proxy.partition();
  const [alone] = await Promise.all(writes.slice(0, 1));
  proxy.heal();
  const batch = await Promise.all(writes.slice(1));
  console.log(`writes unanswered and unresolvable: ${[alone, ...batch].map((a) => `${a.status} after ${a.seconds.toFixed(1)} s`).join(', ')}`);
  expect([alone, ...batch].map((a) => a.status)).toEqual([504, 504, 504, 504]);
  expect(alone.seconds).toBeLessThan(11);
  expect(batch.every((a) => a.seconds - alone.seconds < 11)).toBe(true);
  await setOnPrimary(cluster.primary.url, "ALTER SYSTEM SET synchronous_standby_names = 'standby'");
  // The truth, once the standby acknowledges: the first committed (it waited for the standby); the batch, which
  // waited for the first one's resourceVersion lock, was fenced off by the questions about it and never commits.
  const deadline = Date.now() + 15_000;
  while ((await readyz()) !== 200 && Date.now() < deadline) await pause(100);
  await pause(500);
  const stored = await storedNames(cluster.primary.url);
  expect(names.map((name) => stored.has(name))).toEqual([true, false, false, false]);
});

it('rides the SIGKILL of the synchronous primary: no 500, every answer true, unready while unwritable', async () => {
  const list = await http(server.url, 'GET', COLLECTION);
  let watchFrom = list.json.metadata.resourceVersion as string;
  const seen: string[] = [];
  let watching = true;
  let reopened = 0;
  const watcher = (async () => {
    while (watching) {
      const watch = await WatchClient.open(server.url, `${COLLECTION}?watch=true&resourceVersion=${watchFrom}`).catch(() => undefined);
      let taken = 0;
      while (watch && watching) {
        for (const event of watch.events.slice(taken)) {
          if (event.type === 'ERROR') throw new Error(`watch error: ${JSON.stringify(event.object)}`);
          if (event.type === 'ADDED') seen.push(event.object.metadata.name);
          watchFrom = event.object.metadata.resourceVersion;
        }
        taken = watch.events.length;
        if (watch.ended) break;
        await pause(20);
      }
      watch?.close();
      if (watching) {
        reopened++;
        await pause(200);
      }
    }
  })();

  const answers: { name: string; status: number; at: number; cause?: string }[] = [];
  const probes: { at: number; status: number }[] = [];
  let running = true;
  let n = 0;
  const writers = [0, 1, 2, 3].map(async () => {
    while (running) {
      const name = `f-${n++}`;
      const response = await create(name).catch(() => undefined);
      answers.push({ name, status: response?.status ?? 0, at: Date.now(), cause: response?.status === 201 ? undefined : response?.text });
    }
  });
  const prober = (async () => {
    while (running) {
      const at = Date.now();
      probes.push({ at, status: await readyz() });
      await pause(100);
    }
  })();

  await pause(1500);
  const killedAt = Date.now();
  cluster.primary.kill();
  proxy.point(undefined);
  proxy.cut();
  await pause(1000); // the failover manager notices the loss
  cluster.standby.promote();
  proxy.point(cluster.standby.port);
  const promotedAt = Date.now();
  await pause(3000);
  running = false;
  await Promise.all([...writers, prober]);
  await pause(1000);
  watching = false;
  await watcher;

  const stored = await storedNames(cluster.standby.url);
  const statuses = new Map<number, number>();
  for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
  const before = answers.filter((a) => a.status === 201 && a.at < killedAt).map((a) => a.at);
  const after = answers.filter((a) => a.status === 201 && a.at > killedAt).map((a) => a.at);
  const unwritable = (Math.min(...after) - Math.max(...before)) / 1000;
  console.log(
    `failover: ${answers.length} creates, answers ${JSON.stringify(Object.fromEntries(statuses))}; unwritable ${unwritable.toFixed(1)} s ` +
      `(promotion ${((promotedAt - killedAt) / 1000).toFixed(1)} s after the kill); watcher reopened ${reopened} times`,
  );
  expect([...statuses.keys()].every((status) => [201, 503, 504].includes(status))).toBe(true);
  for (const a of answers) {
    if (a.status === 201) expect([a.name, stored.has(a.name)]).toEqual([a.name, true]);
    if (a.status === 503) expect([a.name, stored.has(a.name)]).toEqual([a.name, false]);
  }
  // Unready from just after the kill until the new primary took writes.
  const whileDown = probes.filter((p) => p.at > killedAt + 200 && p.at < promotedAt);
  // a promotion quicker than a probe's round trip on a loaded machine leaves no probe sent in between
  if (promotedAt - killedAt > 1500) expect(whileDown.length).toBeGreaterThan(0);
  expect(whileDown.every((p) => p.status !== 200)).toBe(true);
  // Every acknowledged create reached the watcher exactly once.
  const acknowledged = answers.filter((a) => a.status === 201).map((a) => a.name);
  expect(acknowledged.filter((name) => seen.filter((s) => s === name).length !== 1)).toEqual([]);
});
