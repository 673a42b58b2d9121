/**
 * `npm run bench:crd`: the server CPU of creating and of reading a custom object against a built-in object of the
 * same size and content. The custom kind's schema types every field of the object (so that defaulting, pruning and
 * validation walk all of it, as the built-in kind's decoding and checks do). Target: a custom object costs no more.
 */
import { ServerProcess } from '../test/support/server-process';
import { deployment } from './support/deployment';
import { describeMachine, formatNumber, table, writeSection } from './support/results';
import { runBenchmark } from './support/run';
import { Cluster } from './support/server';

const REPEAT = Number(process.env.BENCH_CRD_REPEAT ?? 300);
const WARM_UP = 20;
const BUILT_IN = '/apis/extensions/v1beta1/namespaces/bench/deployments';
const CUSTOM = '/apis/bench.example.com/v1/namespaces/bench/workloads';

/** A structural schema that types every member of `value` (the items of a list by its first item). */
function schemaOf(value: unknown): Record<string, unknown> {
  if (Array.isArray(value)) return { type: 'array', items: value.length > 0 ? schemaOf(value[0]) : { type: 'string' } };
  if (value !== null && typeof value === 'object') {
    return { type: 'object', properties: Object.fromEntries(Object.entries(value).map(([key, member]) => [key, schemaOf(member)])) };
  }
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number' };
  return { type: typeof value };
}

async function request(server: ServerProcess, method: string, path: string, body?: unknown) {
  const before = server.cpuMs();
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status}: ${text.slice(0, 300)}`);
  return { cpuMs: server.cpuMs() - before, bytes: text.length };
}

/** The spec the apiserver stores for the benchmark's Deployment, defaults and all: both kinds' objects carry it. */
async function storedSpec(server: ServerProcess): Promise<unknown> {
  const response = await fetch(`${server.url}${BUILT_IN}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(deployment('probe')),
  });
  return ((await response.json()) as { spec: unknown }).spec;
}

async function defineWorkloads(server: ServerProcess, spec: unknown): Promise<void> {
  await request(server, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    metadata: { name: 'workloads.bench.example.com' },
    spec: {
      group: 'bench.example.com',
      scope: 'Namespaced',
      names: { plural: 'workloads', kind: 'Workload' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schemaOf({ spec }) } }],
    },
  });
  for (let i = 0; (await fetch(`${server.url}${CUSTOM}`)).status !== 200; i++) {
    if (i > 500) throw new Error('the custom resource is not served');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

type Figures = Record<'create' | 'get', { cpuMs: number; bytes: number }>;

/** Both kinds in turn, so that both meet the same state of the machine; the first WARM_UP of each are not counted. */
async function measure(server: ServerProcess, spec: unknown): Promise<{ builtIn: Figures; custom: Figures }> {
  const zero = (): Figures => ({ create: { cpuMs: 0, bytes: 0 }, get: { cpuMs: 0, bytes: 0 } });
  const totals = { builtIn: zero(), custom: zero() };
  const bodies = {
    builtIn: (name: string) => ({ ...deployment(name), spec }),
    custom: (name: string) => ({ apiVersion: 'bench.example.com/v1', kind: 'Workload', metadata: (deployment(name) as { metadata: unknown }).metadata, spec }),
  };
  const paths = { builtIn: BUILT_IN, custom: CUSTOM };
  for (const verb of ['create', 'get'] as const) {
    for (let i = 0; i < REPEAT + WARM_UP; i++) {
      for (const kind of ['builtIn', 'custom'] as const) {
        const name = `object-${i}`;
        const one = verb === 'create' ? await request(server, 'POST', paths[kind], bodies[kind](name)) : await request(server, 'GET', `${paths[kind]}/${name}`);
        if (i >= WARM_UP) totals[kind][verb].cpuMs += one.cpuMs / REPEAT;
        totals[kind][verb].bytes = one.bytes;
      }
    }
  }
  return totals;
}

runBenchmark(async () => {
  const cluster = await Cluster.start(1);
  try {
    const server = cluster.servers[0];
    const spec = await storedSpec(server);
    await defineWorkloads(server, spec);
    const { builtIn, custom } = await measure(server, spec);
    const rows = (['create', 'get'] as const).map((verb) => {
      const ratio = custom[verb].cpuMs / builtIn[verb].cpuMs;
      return [verb, formatNumber(builtIn[verb].cpuMs), formatNumber(custom[verb].cpuMs), `${ratio.toFixed(2)}× (${ratio <= 1 ? 'met' : 'not met'})`, `${formatNumber(builtIn[verb].bytes)} / ${formatNumber(custom[verb].bytes)} B`];
    });
    const body = [
      await describeMachine(cluster.databaseUrl),
      `- ${REPEAT} creates, then ${REPEAT} gets, of a Deployment (extensions/v1beta1) and of a custom Workload with the same spec, taken in turn, after ${WARM_UP} of each not counted; server CPU from /proc`,
      '- the Workload\'s schema types every field of the spec, so that defaulting, pruning and validation walk all of it',
      '',
      table(['request', 'Deployment: server CPU ms', 'Workload: server CPU ms', 'custom/built-in (target ≤ 1×)', 'response size (built-in / custom)'], rows),
    ].join('\n');
    console.log(body);
    writeSection('Custom objects against built-in objects of the same size (`npm run bench:crd`)', body);
  } finally {
    await cluster.stop();
  }
});
