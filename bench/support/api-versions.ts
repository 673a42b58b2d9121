import { ServerProcess } from '../../test/support/server-process';
import { deployment } from './deployment';
import { runLoad } from './load';
import { describeMachine, table, writeSection } from './results';
import { Cluster } from './server';
import { measureInTurns } from './turns';

const NAMESPACE = 'bench-versions';
const OBJECTS = 20;
const CONNECTIONS = 16;
const GET_SECONDS = Number(process.env.BENCH_VERSIONS_GET_SECONDS ?? 12);
const ROUNDS = 6;
const CREATES_PER_ROUND = Number(process.env.BENCH_VERSIONS_CREATES ?? 600);

/** The served versions compared: the one the objects are stored in, and apps/v1 converted from it. */
const VERSIONS = [
  { label: 'extensions/v1beta1', apiVersion: 'extensions/v1beta1', collection: `/apis/extensions/v1beta1/namespaces/${NAMESPACE}/deployments` },
  { label: 'apps/v1', apiVersion: 'apps/v1', collection: `/apis/apps/v1/namespaces/${NAMESPACE}/deployments` },
] as const;

/** The bench Deployment in a version, with the selector apps/v1 requires (the same body through both). */
function deploymentIn(apiVersion: string, name: string): string {
  const object = deployment(name) as { spec: Record<string, unknown> };
  return JSON.stringify({ ...object, apiVersion, spec: { ...object.spec, selector: { matchLabels: { app: 'web', tier: 'frontend' } } } });
}

async function post(server: ServerProcess, path: string, body: string): Promise<void> {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  if (response.status >= 300) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
}

/** Server CPU µs per create through each version: rounds of creates, the versions taken in turn. */
async function createCosts(server: ServerProcess): Promise<number[]> {
  const cpuMs = VERSIONS.map(() => 0);
  const created = VERSIONS.map(() => 0);
  for (let round = -1; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const v of order) {
      const { apiVersion, collection } = VERSIONS[v];
      const before = server.cpuMs();
      const result = await runLoad({
        url: server.url,
        connections: CONNECTIONS,
        seconds: 60,
        amount: CREATES_PER_ROUND,
        request: (n) => ({ method: 'POST', path: collection, body: deploymentIn(apiVersion, `v${v}-r${round + 1}-${n}`) }),
      });
      if (result.errors > 0) throw new Error(`creates through ${apiVersion}: ${result.errors} failed (${JSON.stringify(result.statuses)})`);
      if (round < 0) continue; // warm-up
      cpuMs[v] += server.cpuMs() - before;
      created[v] += result.ok;
    }
  }
  return cpuMs.map((ms, v) => (ms * 1000) / created[v]);
}

/**
 * A GET and a create of the same Deployments through apps/v1 (converted from the stored extensions/v1beta1 form)
 * against extensions/v1beta1: server CPU per request, the versions taken in turn on one server. Writes its section of
 * bench/results/latest.md and answers it.
 */
export async function compareApiVersions(cluster: Cluster): Promise<string> {
  const server = await cluster.add();
  try {
    await post(server, '/api/v1/namespaces', JSON.stringify({ metadata: { name: NAMESPACE } }));
    for (let i = 0; i < OBJECTS; i++) await post(server, VERSIONS[0].collection, deploymentIn(VERSIONS[0].apiVersion, `web-${i}`));
    const gets = await measureInTurns(
      server,
      VERSIONS.map(({ collection }) => ({ url: server.url, path: `${collection}/web-7`, headers: {} })),
      { seconds: GET_SECONDS, rounds: ROUNDS, connections: CONNECTIONS },
    );
    const creates = await createCosts(server);
    const ratio = (costs: number[]) => costs[1] / costs[0];
    const verdict = (value: number) => `${value.toFixed(2)}× (${value <= 1.15 ? 'met' : 'not met'})`;
    const rows = [
      ['GET', Math.round(gets[0].cpuUs), Math.round(gets[1].cpuUs), verdict(ratio(gets.map((g) => g.cpuUs)))],
      ['create', Math.round(creates[0]), Math.round(creates[1]), verdict(ratio(creates))],
    ];
    const section = [
      await describeMachine(cluster.databaseUrl),
      `- one server on the insecure port; ${OBJECTS} Deployments (about 1 KB, with a selector) created through extensions/v1beta1, the form they are stored in`,
      `- GET: ${GET_SECONDS} s of GETs of one of them through each version, ${CONNECTIONS} clients, in ${ROUNDS} rounds taken in turn, after 2 s of each not counted`,
      `- create: ${ROUNDS} rounds of ${CREATES_PER_ROUND} creates through each version (the same body but its apiVersion), ${CONNECTIONS} clients, the order alternating, after one round of each not counted`,
      "- server CPU is the process's user+system time from /proc over each round",
      '',
      table(['request', 'extensions/v1beta1: server CPU µs', 'apps/v1: server CPU µs', 'apps/v1 / extensions (target ≤ 1.15×)'], rows),
    ].join('\n');
    writeSection('A Deployment through apps/v1 against extensions/v1beta1 (`npm run bench`, `npm run bench:versions`)', section);
    return section;
  } finally {
    await cluster.remove(server);
  }
}
