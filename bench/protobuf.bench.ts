/**
 * JSON against protobuf, on objects the server itself wrote: body size and encode/decode time of one Deployment
 * and of a 1,000-item DeploymentList, then GET and LIST requests per second over HTTP in each media type.
 *
 *   npm run bench:protobuf          (DATABASE_URL unset: an embedded PostgreSQL in a temporary folder)
 */
import autocannon from 'autocannon';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createApp } from '../src/app';
import { decodeEnveloped, encodeEnveloped } from '../src/apiserver/codec/protobuf/envelope';
import { JsonObject } from '../src/apiserver/codec/protobuf/json-mapping';
import { loadSettings } from '../src/config/settings';
import { startEmbeddedPostgres } from '../src/storage/database/embedded-postgres';

const ITEMS = 1000;
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const NAMESPACE_PATH = '/apis/extensions/v1beta1/namespaces/bench/deployments';

function deployment(i: number): JsonObject {
  const labels = { app: `web-${i % 10}`, tier: 'frontend' };
  return {
    apiVersion: 'extensions/v1beta1',
    kind: 'Deployment',
    metadata: { name: `web-${i}`, labels, annotations: { 'example.com/owner': `team-${i % 7}` } },
    spec: {
      replicas: 3,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: 'web',
              image: `registry.example.com/web:1.${i % 50}`,
              ports: [{ name: 'http', containerPort: 8080 }],
              env: [{ name: 'MODE', value: 'production' }, { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
              resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
              livenessProbe: { httpGet: { path: '/healthz', port: 'http' }, initialDelaySeconds: 5 },
              volumeMounts: [{ name: 'cache', mountPath: '/cache' }],
            },
          ],
          volumes: [{ name: 'cache', emptyDir: {} }],
        },
      },
    },
  };
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** The median time of one call, in microseconds, over rounds interleaved with the other candidates'. */
function timeAll(candidates: Record<string, () => unknown>, perRound: number, rounds = 15): Record<string, number> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(candidates).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of Object.entries(candidates)) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < perRound; i++) run();
      samples[name].push(Number(process.hrtime.bigint() - start) / perRound / 1000);
    }
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}

function codecRows(label: string, value: JsonObject, perRound: number): Record<string, string | number>[] {
  const jsonBytes = Buffer.from(`${JSON.stringify(value)}\n`);
  const protobufBytes = encodeEnveloped(value);
  const times = timeAll(
    {
      jsonStringify: () => JSON.stringify(value),
      jsonEncode: () => Buffer.from(`${JSON.stringify(value)}\n`),
      protobufEncode: () => encodeEnveloped(value),
      jsonDecode: () => JSON.parse(jsonBytes.toString('utf8')),
      protobufDecode: () => decodeEnveloped(protobufBytes),
    },
    perRound,
  );
  const us = (n: number) => Number(n.toFixed(1));
  return [
    {
      object: label,
      format: 'JSON',
      bytes: jsonBytes.length,
      'encode µs': us(times.jsonEncode),
      'of which stringify µs': us(times.jsonStringify),
      'decode µs': us(times.jsonDecode),
    },
    {
      object: label,
      format: 'protobuf',
      bytes: protobufBytes.length,
      'encode µs': us(times.protobufEncode),
      'of which stringify µs': '',
      'decode µs': us(times.protobufDecode),
    },
  ];
}

async function requestsPerSecond(url: string, accept: string): Promise<{ rps: number; mbPerSecond: number; p50ms: number }> {
  const result = await autocannon({ url, connections: 8, duration: 5, headers: { accept } });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url} (${accept}): ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    rps: Math.round(result.requests.average),
    mbPerSecond: Number((result.throughput.average / 1e6).toFixed(1)),
    p50ms: result.latency.p50,
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pgkube-bench-'));
  chmodSync(dir, 0o755); // the postgres user must be able to reach its data folder
  const database = process.env.DATABASE_URL
    ? { url: process.env.DATABASE_URL, stop: async () => undefined }
    : await startEmbeddedPostgres(join(dir, 'data'), await freePort(), () => undefined);
  const admin = new Client({ connectionString: database.url });
  await admin.connect();
  const dbName = `pgkube_bench_${process.pid}`;
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(database.url);
  url.pathname = `/${dbName}`;
  const app = await createApp(loadSettings({ DATABASE_POOL_SIZE: '10', LOG_LEVEL: 'error' }), url.toString());
  try {
    await app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
    for (let start = 0; start < ITEMS; start += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, ITEMS - start) }, async (_, i) => {
          const response = await fetch(`${base}${NAMESPACE_PATH}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(deployment(start + i)),
          });
          if (response.status !== 201) throw new Error(`create: ${response.status} ${await response.text()}`);
        }),
      );
    }
    const one = (await (await fetch(`${base}${NAMESPACE_PATH}/web-0`)).json()) as JsonObject;
    const list = (await (await fetch(`${base}${NAMESPACE_PATH}`)).json()) as JsonObject;

    console.log(`\nEncoding and decoding (median of 15 interleaved rounds; encode = the bytes a response carries)\n`);
    console.table([...codecRows('Deployment', one, 2000), ...codecRows(`DeploymentList (${ITEMS})`, list, 3)]);

    console.log(`\nHTTP (autocannon, 8 connections, 5 s each)\n`);
    const rows = [];
    for (const [request, path] of [
      ['GET one Deployment', `${NAMESPACE_PATH}/web-0`],
      [`LIST ${ITEMS} Deployments`, NAMESPACE_PATH],
    ]) {
      for (const [format, accept] of [
        ['JSON', 'application/json'],
        ['protobuf', PROTOBUF],
      ]) {
        const measured = await requestsPerSecond(`${base}${path}`, accept);
        rows.push({ request, format, 'requests/s': measured.rps, 'MB/s': measured.mbPerSecond, 'p50 ms': measured.p50ms });
      }
    }
    console.table(rows);
  } finally {
    await app.close();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
