/**
 * `npm run bench:apply`: the server CPU of a server-side apply (the whole manifest, as kubectl sends it, changing
 * spec.replicas) against a strategic merge patch of the same change, and of a create, which now records its
 * managed fields. Target: an apply costs at most 2 times the patch.
 */
import { ServerProcess } from '../test/support/server-process';
import { deployment } from './support/deployment';
import { describeMachine, formatNumber, table, writeSection } from './support/results';
import { runBenchmark } from './support/run';
import { Cluster } from './support/server';

const OBJECTS = 50;
const REPEAT = Number(process.env.BENCH_APPLY_REPEAT ?? 400);
const COLLECTION = '/apis/extensions/v1beta1/namespaces/apply/deployments';
const TARGET = 2;

type Form = 'patch' | 'apply' | 'create';

/** The request of one form in round `round`: each changes the replicas of an object of its own. */
function request(form: Form, round: number): { method: string; path: string; type: string; body: string } {
  const replicas = round + 3;
  const name = `${form}-${round % OBJECTS}`;
  switch (form) {
    case 'patch':
      return { method: 'PATCH', path: `${COLLECTION}/${name}`, type: 'application/strategic-merge-patch+json', body: JSON.stringify({ spec: { replicas } }) };
    case 'apply': {
      const manifest = deployment(name) as { spec: object };
      const body = JSON.stringify({ ...manifest, spec: { ...manifest.spec, replicas } });
      return { method: 'PATCH', path: `${COLLECTION}/${name}?fieldManager=bench`, type: 'application/apply-patch+yaml', body };
    }
    case 'create':
      return { method: 'POST', path: COLLECTION, type: 'application/json', body: JSON.stringify(deployment(`created-${round}`)) };
  }
}

/** Server CPU ms of one request. */
async function send(server: ServerProcess, form: Form, round: number): Promise<number> {
  const { method, path, type, body } = request(form, round);
  const before = server.cpuMs();
  const response = await fetch(`${server.url}${path}`, { method, headers: { 'content-type': type }, body });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${form}: ${response.status}: ${text.slice(0, 300)}`);
  return server.cpuMs() - before;
}

/** The forms in turn, so that all meet the same state of the machine; the first two rounds are warm-up. */
async function measure(server: ServerProcess): Promise<Record<Form, number>> {
  const totals: Record<Form, number> = { patch: 0, apply: 0, create: 0 };
  for (let round = 0; round < REPEAT + 2; round++) {
    for (const form of ['patch', 'apply', 'create'] as const) {
      const cpuMs = await send(server, form, round);
      if (round >= 2) totals[form] += cpuMs / REPEAT;
    }
  }
  return totals;
}

async function createObjects(server: ServerProcess): Promise<void> {
  for (let i = 0; i < OBJECTS; i++) {
    const created = await fetch(`${server.url}${COLLECTION}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(deployment(`patch-${i}`)) });
    if (created.status !== 201) throw new Error(`create: ${await created.text()}`);
    const { method, path, type, body } = request('apply', i);
    const applied = await fetch(`${server.url}${path}`, { method, headers: { 'content-type': type }, body });
    if (applied.status !== 201) throw new Error(`apply: ${await applied.text()}`);
  }
}

runBenchmark(async () => {
  const cluster = await Cluster.start(1);
  try {
    const server = cluster.servers[0];
    await createObjects(server);
    const cpu = await measure(server);
    const ratio = cpu.apply / cpu.patch;
    const body = [
      await describeMachine(cluster.databaseUrl),
      `- ${OBJECTS} Deployments of each form; ${REPEAT} requests of each form, taken in turn, after 2 warm-up rounds; server CPU from /proc`,
      '',
      table(
        ['request', 'server CPU ms/request'],
        [
          ['strategic merge patch of spec.replicas', formatNumber(cpu.patch)],
          ['server-side apply of the manifest with a new spec.replicas', formatNumber(cpu.apply)],
          ['create (with its managed fields)', formatNumber(cpu.create)],
        ],
      ),
      '',
      `apply/patch CPU per request: **${ratio.toFixed(2)}×** (target ≤ ${TARGET}×: ${ratio <= TARGET ? 'met' : 'not met'}).`,
    ].join('\n');
    console.log(body);
    writeSection('Server-side apply against a strategic merge patch of the same change (`npm run bench:apply`)', body);
  } finally {
    await cluster.stop();
  }
});
