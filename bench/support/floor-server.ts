/**
 * The floor of the benchmarks: the least a server on pgkube's stack (Node, Fastify, `pg`, the same PostgreSQL and
 * tables, the same transport) spends on each request. It does only what a verb cannot skip: read the body and parse
 * it, run pgkube's own storage statement (the write batch function through the same group commit for writes, the
 * same grouped SELECT for a GET, the same page statement for a list), and write the stored text back. No
 * validation, defaulting, managed fields, audit, authorization or admission. Run as a process of its own:
 *
 *   FLOOR_DATABASE_URL=… FLOOR_PORT=… [FLOOR_CERT=… FLOOR_KEY=…] node .bench-build/bench/support/floor-server.js
 *
 * Serves `/apis/<group>/<version>/namespaces/<ns>/<resource>[/<name>]`: POST, GET (a list of one page with `limit`;
 * with `watch`, the objects as ADDED events in one write, then nothing until `timeoutSeconds` ends the response), and
 * GET, PUT and merge PATCH of one object; `/healthz`.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify, { FastifyReply, FastifyRequest } from 'fastify';
import { Pool } from 'pg';
import { applyMergePatch } from '../../src/apimachinery/patch/merge-patch';
import { ServerMetrics } from '../../src/metrics/server-metrics';
import { GroupCommit } from '../../src/storage/objects/group-commit';
import { GroupRead } from '../../src/storage/objects/group-read';
import { DatabaseHistory } from '../../src/storage/database/database-history';
import { listResult, ListRow } from '../../src/storage/objects/list-result';
import { listStatement } from '../../src/storage/objects/list-statement';
import { ObjectKey } from '../../src/storage/objects/object-key';
import { OutputItem, outputItem, OutputRow } from '../../src/storage/objects/read-form';

const POOL_SIZE = 20; // the server's default DATABASE_POOL_SIZE

type Params = { group: string; version: string; namespace: string; resource: string; name?: string };
type Stored = { metadata: Record<string, unknown> } & Record<string, unknown>;

const pool = new Pool({ connectionString: process.env.FLOOR_DATABASE_URL, max: POOL_SIZE });
const metrics = new ServerMetrics();
const writes = new GroupCommit(pool, new DatabaseHistory(pool), metrics);
const reads = new GroupRead(pool, metrics);

const keyOf = ({ group, resource, namespace, name }: Params): ObjectKey => ({ group, resource, namespace, name: name ?? '' });

/** An object read as text, written back as text: the resourceVersion put first into its metadata. */
const itemText = (item: OutputItem) =>
  `{"metadata":{"resourceVersion":${JSON.stringify(item.resourceVersion)},${item.metadata.slice(1)},${item.rest.slice(1)}`;

/** The object stored, its body without a resourceVersion, and the text of the answer with the one written. */
async function write(reply: FastifyReply, key: ObjectKey, write: 'create' | 'update', object: Stored, expectedVersion?: string, code = 200) {
  const { resourceVersion: _, ...metadata } = object.metadata;
  const body = { ...object, metadata };
  const version = await writes.run({ write, key, expectedVersion, body: JSON.stringify(body) });
  if (version === undefined) return reply.code(409).send('{"kind":"Status","code":409}');
  return reply.code(code).header('content-type', 'application/json').send(JSON.stringify({ ...body, metadata: { ...metadata, resourceVersion: version } }));
}

const parsed = (request: FastifyRequest) => JSON.parse((request.body as Buffer).toString('utf8')) as Stored;

const tls = process.env.FLOOR_CERT ? { https: { cert: readFileSync(process.env.FLOOR_CERT), key: readFileSync(process.env.FLOOR_KEY as string) } } : {};
const app = Fastify({ ...tls, bodyLimit: 3 * 1024 * 1024 });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

const COLLECTION = '/apis/:group/:version/namespaces/:namespace/:resource';
const OBJECT = `${COLLECTION}/:name`;

app.get('/healthz', async () => 'ok');

app.post<{ Params: Params }>(COLLECTION, async (request, reply) => {
  const object = parsed(request);
  // what any server must give a new object: its namespace, uid and creation time
  Object.assign(object.metadata, { namespace: request.params.namespace, uid: randomUUID(), creationTimestamp: new Date().toISOString().slice(0, 19) + 'Z' });
  return write(reply, { ...keyOf(request.params), name: object.metadata.name as string }, 'create', object, undefined, 201);
});

app.get<{ Params: Params }>(OBJECT, async (request, reply) => {
  const row = await reads.get<OutputRow>('output', keyOf(request.params));
  if (!row) return reply.code(404).send('{"kind":"Status","code":404}');
  return reply.header('content-type', 'application/json').send(itemText(outputItem(row)));
});

/** A replacement is written over the object as it is now, keeping what a client cannot change (its key, uid and age). */
app.put<{ Params: Params }>(OBJECT, async (request, reply) => {
  const key = keyOf(request.params);
  const object = parsed(request);
  const current = await reads.get<{ resource_version: string; body: Stored }>('object', key);
  if (!current) return reply.code(404).send('{"kind":"Status","code":404}');
  const { namespace, uid, creationTimestamp } = current.body.metadata;
  Object.assign(object.metadata, { namespace, uid, creationTimestamp });
  return write(reply, key, 'update', object, (object.metadata.resourceVersion as string | undefined) ?? current.resource_version);
});

app.patch<{ Params: Params }>(OBJECT, async (request, reply) => {
  const key = keyOf(request.params);
  const row = await reads.get<{ resource_version: string; body: Stored }>('object', key);
  if (!row) return reply.code(404).send('{"kind":"Status","code":404}');
  return write(reply, key, 'update', applyMergePatch(row.body, parsed(request)) as Stored, row.resource_version);
});

/** A watch's initial events: the list's objects as ADDED events with their kind and apiVersion, in one write. */
async function watch(reply: FastifyReply, key: ObjectKey, { group, version }: Params, seconds: number) {
  const { rows } = await pool.query<ListRow<OutputRow>>(listStatement(key, { namespace: key.namespace }, 'output'));
  const typeMeta = `{"type":"ADDED","object":{"kind":"Deployment","apiVersion":${JSON.stringify(`${group}/${version}`)},`;
  const events = listResult(rows, {}, (row) => `${typeMeta}${itemText(outputItem(row)).slice(1)}}\n`);
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': 'application/json' });
  reply.raw.write(events.items.join(''));
  setTimeout(() => reply.raw.end(), seconds * 1000);
}

app.get<{ Params: Params; Querystring: { limit?: string; watch?: string; timeoutSeconds?: string } }>(COLLECTION, async (request, reply) => {
  const key = keyOf(request.params);
  if (request.query.watch) return watch(reply, key, request.params, Number(request.query.timeoutSeconds ?? 60));
  const limit = request.query.limit === undefined ? undefined : Number(request.query.limit);
  const { rows } = await pool.query<ListRow<OutputRow>>(listStatement(key, { namespace: key.namespace, limit }, 'output'));
  const page = listResult(rows, { limit }, (row) => itemText(outputItem(row)));
  return reply
    .header('content-type', 'application/json')
    .send(`{"metadata":{"resourceVersion":${JSON.stringify(page.resourceVersion)}},"items":[${page.items.join(',')}]}`);
});

app.listen({ host: '127.0.0.1', port: Number(process.env.FLOOR_PORT) }).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
process.once('SIGTERM', () => void app.close().then(() => pool.end()).then(() => process.exit(0)));
