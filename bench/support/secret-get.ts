import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServerProcess } from '../../test/support/server-process';
import { describeMachine, formatNumber, table, writeSection } from './results';
import { Cluster } from './server';

const ROUNDS = Number(process.env.BENCH_SECRETS_ROUNDS ?? 8);
const GETS_PER_ROUND = Number(process.env.BENCH_SECRETS_GETS ?? 250);
const CONCURRENCY = 4;
const OBJECTS = 20;
/** Rounds and GETs of the cold measurement, each GET the first read of an object just written. */
const COLD_ROUNDS = 10;
const COLD_GETS = 400;
/**
 * First reads of each kind before the cold rounds, not counted: what only first reads run (opening values) reaches
 * optimized code after some thousand calls, a cost of a process's first minutes and not of each read.
 */
const COLD_WARM_UP_GETS = 2000;
const NAMESPACE = 'bench-secrets';

/** The sizes compared: keys of values, each value written as `length` characters in JSON (text, or base64). */
const SIZES = [
  { keys: 4, length: 256 },
  { keys: 8, length: 2048 },
];

type Kind = 'configmaps' | 'secrets';

/** A ConfigMap and a Secret whose responses are the same size: text values of the same length as the base64 ones. */
function body(kind: Kind, name: string, size: (typeof SIZES)[number]): unknown {
  const values = Object.fromEntries(
    Array.from({ length: size.keys }, (_, i) => [
      `key-${i}`,
      kind === 'secrets' ? randomBytes((size.length / 4) * 3).toString('base64') : randomBytes(size.length).toString('base64').slice(0, size.length),
    ]),
  );
  return { apiVersion: 'v1', kind: kind === 'secrets' ? 'Secret' : 'ConfigMap', metadata: { name }, data: values };
}

async function send(server: ServerProcess, method: string, path: string, payload?: unknown): Promise<number> {
  const response = await fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: payload === undefined ? undefined : JSON.stringify(payload) });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status}: ${text.slice(0, 300)}`);
  return text.length;
}

/** Runs `task` for 0 … count-1, `CONCURRENCY` at a time. */
async function concurrently(count: number, task: (n: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/** Server CPU (ms) of `count` GETs of a kind's objects `<prefix>-<n % objects>`, `CONCURRENCY` at a time. */
async function cpuOfGets(server: ServerProcess, kind: Kind, prefix: string, count: number, objects = OBJECTS): Promise<number> {
  const before = server.threadsCpuMs();
  await concurrently(count, (n) => send(server, 'GET', `/api/v1/namespaces/${NAMESPACE}/${kind}/${prefix}-${n % objects}`));
  return server.threadsCpuMs() - before;
}

const row = (label: string, bytes: Record<Kind, number>, perGet: Record<Kind, number>) => {
  const ratio = perGet.secrets / perGet.configmaps;
  console.log(`${label}: ConfigMap ${Math.round(perGet.configmaps)} µs, Secret (aesgcm) ${Math.round(perGet.secrets)} µs of server CPU a GET: ${ratio.toFixed(2)}×`);
  return [label, `${formatNumber(bytes.configmaps)} / ${formatNumber(bytes.secrets)} B`, Math.round(perGet.configmaps), Math.round(perGet.secrets), `${ratio.toFixed(2)}× (${ratio <= 1.2 ? 'met' : 'not met'})`];
};

/**
 * A Secret GET against a ConfigMap GET of the same size, on a server that encrypts Secrets with aesgcm (and not
 * ConfigMaps): server CPU per request of each, the two taken in turn, several rounds, so that both meet the same
 * state of the machine. Writes its section of bench/results/latest.md and answers it.
 */
export async function compareSecretGets(cluster: Cluster): Promise<string> {
  const config = join(cluster.workDir, 'encryption.yaml');
  writeFileSync(
    config,
    JSON.stringify({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'EncryptionConfiguration',
      resources: [{ resources: ['secrets'], providers: [{ aesgcm: { keys: [{ name: 'key1', secret: randomBytes(32).toString('base64') }] } }] }],
    }),
  );
  const server = await cluster.add({ env: { ENCRYPTION_PROVIDER_CONFIG: config } });
  // objects written by another instance: the measured one has never seen their values, and must decrypt them
  const writer = await cluster.add({ env: { ENCRYPTION_PROVIDER_CONFIG: config } });
  try {
    const rows = [];
    for (const [s, size] of SIZES.entries()) {
      const prefix = `size${s}`;
      const bytes: Record<Kind, number> = { configmaps: 0, secrets: 0 };
      for (const kind of ['configmaps', 'secrets'] as const) {
        for (let i = 0; i < OBJECTS; i++) bytes[kind] = await send(server, 'POST', `/api/v1/namespaces/${NAMESPACE}/${kind}`, body(kind, `${prefix}-${i}`, size));
        await cpuOfGets(server, kind, prefix, GETS_PER_ROUND); // warm-up, not counted
      }
      const cpu: Record<Kind, number> = { configmaps: 0, secrets: 0 };
      for (let round = 0; round < ROUNDS; round++) {
        for (const kind of round % 2 === 0 ? (['configmaps', 'secrets'] as const) : (['secrets', 'configmaps'] as const)) {
          cpu[kind] += await cpuOfGets(server, kind, prefix, GETS_PER_ROUND);
        }
      }
      const perGet = (kind: Kind) => (cpu[kind] * 1000) / (ROUNDS * GETS_PER_ROUND);
      rows.push(row(`${size.keys} keys × ${formatNumber(size.length)} B, warm`, bytes, { configmaps: perGet('configmaps'), secrets: perGet('secrets') }));
      const cold: Record<Kind, number> = { configmaps: 0, secrets: 0 };
      for (let round = -1; round < COLD_ROUNDS; round++) {
        for (const kind of round % 2 === 0 ? (['configmaps', 'secrets'] as const) : (['secrets', 'configmaps'] as const)) {
          const [fresh, count] = [`${prefix}-cold${round + 1}`, round < 0 ? COLD_WARM_UP_GETS : COLD_GETS];
          await concurrently(count, (i) => send(writer, 'POST', `/api/v1/namespaces/${NAMESPACE}/${kind}`, body(kind, `${fresh}-${i}`, size)));
          const used = await cpuOfGets(server, kind, fresh, count, count);
          if (round >= 0) cold[kind] += used;
        }
      }
      const perColdGet = (kind: Kind) => (cold[kind] * 1000) / (COLD_ROUNDS * COLD_GETS);
      rows.push(row(`${size.keys} keys × ${formatNumber(size.length)} B, cold`, bytes, { configmaps: perColdGet('configmaps'), secrets: perColdGet('secrets') }));
    }
    const section = [
      await describeMachine(cluster.databaseUrl),
      `- a server started with an EncryptionConfiguration that encrypts secrets with aesgcm (ConfigMaps stay in the clear); ${OBJECTS} objects of each kind and size, whose GET responses are the same size (text values as long as the secrets' base64 ones)`,
      `- warm: ${ROUNDS} rounds of ${GETS_PER_ROUND} GETs of each kind (${CONCURRENCY} at a time) over the same ${OBJECTS} objects (written through the measured instance), the kinds taken in turn (the order alternating), after one round of each not counted: a Secret's values come from the instance's memory of the values it wrote or opened (bounded; as an apiserver's watch cache holds objects decrypted), so this is mostly the cost of finding them there`,
      `- cold: ${COLD_ROUNDS} rounds of ${COLD_GETS} objects of each kind written through another instance, then each read once from the measured one (the GETs alone measured, the kinds' order alternating), after ${formatNumber(COLD_WARM_UP_GETS)} such reads of each not counted (opening values reaches optimized code after some thousand calls): every Secret GET decrypts its values (an instance remembers the values it writes, so its own writes read back warm)`,
      '- server CPU is the time the server process\'s threads ran (the main thread, libuv\'s pool, V8\'s compiler and garbage collector threads, as user+system time counts them), summed from /proc/PID/task/*/schedstat to the nanosecond, over each round',
      '',
      table(['values, reads', 'response (ConfigMap / Secret)', 'ConfigMap GET: server CPU µs', 'Secret GET: server CPU µs', 'Secret/ConfigMap (target ≤ 1.2×)'], rows),
    ].join('\n');
    writeSection('Secrets (encrypted with aesgcm) against ConfigMaps of the same size (`npm run bench`, `npm run bench:secrets`)', section);
    return section;
  } finally {
    await cluster.remove(writer);
    await cluster.remove(server);
  }
}
