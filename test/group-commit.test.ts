import { Client } from 'pg';
import { ObjectStore } from '../src/storage/objects/object-store';
import { useTestServer } from './support/api';
import { collectionPath, itemPath, kindNamed } from './support/kinds';
import { sample, scrape } from './support/metrics';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// Group commit: the writes that arrive while a write transaction is in flight are committed together, each with its
// own answer. The test holds the resourceVersion lock from a connection of its own, so that the first write stays in
// flight while the others queue behind it; released, the queue goes as one transaction.

const DEPLOYMENT = kindNamed('Deployment');
const NS = 'batched';
// the tests' own objects, versions and events are compared exactly: no deployment controller writes besides
const { call, server } = useTestServer([NS], WITHOUT_DEPLOYMENT_CONTROLLER);

const deployment = (name: string, labels: Record<string, string> = { app: 'web' }) => ({
  ...DEPLOYMENT.manifest,
  metadata: { ...DEPLOYMENT.manifest.metadata, name, namespace: NS, labels },
});

/** The transaction that wrote the object's row (rows of one transaction share it). */
const writtenBy = async (name: string) =>
  (await server().sql<{ xmin: string }>(`SELECT xmin::text FROM objects WHERE namespace = $1 AND name = $2`, [NS, name]))[0].xmin;

/** Starts `first` while another connection holds the resourceVersion lock, then `queued` once `first` waits for it; releases it a second later. */
async function withLockHeld<T>(first: () => Promise<unknown>, queued: () => T): Promise<[unknown, T]> {
  const holder = new Client({ connectionString: server().databaseUrl });
  await holder.connect();
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock(7365, 1)');
    const inFlight = first();
    for (let waiting = 0; waiting === 0; await new Promise((resolve) => setTimeout(resolve, 20))) {
      const { rows } = await holder.query(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = 7365 AND objid = 1 AND NOT granted`);
      waiting = rows[0].n;
    }
    const rest = queued();
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the queued writes reach the store meanwhile
    await holder.query('COMMIT');
    return [await inFlight, rest];
  } finally {
    await holder.end();
  }
}

it('gives each write of one batch its own answer: a conflict, successes and an already-exists', async () => {
  const contended = (await call('POST', collectionPath(DEPLOYMENT, NS), deployment('contended'))).json;
  expect((await call('POST', collectionPath(DEPLOYMENT, NS), deployment('existing'))).status).toBe(201);

  const batchesOfFour = async () => {
    const text = await scrape(server().url);
    return sample(text, 'pgkube_storage_write_batch_size_bucket', { le: '4' })! - sample(text, 'pgkube_storage_write_batch_size_bucket', { le: '2' })!;
  };
  const before = await batchesOfFour();
  const [first, queued] = await withLockHeld(
    () => call('POST', collectionPath(DEPLOYMENT, NS), deployment('first')),
    () =>
      Promise.all([
        call('PUT', itemPath(DEPLOYMENT, 'contended', NS), { ...contended, metadata: { ...contended.metadata, labels: { writer: 'a' } } }),
        call('PUT', itemPath(DEPLOYMENT, 'contended', NS), { ...contended, metadata: { ...contended.metadata, labels: { writer: 'b' } } }),
        call('POST', collectionPath(DEPLOYMENT, NS), deployment('fresh')),
        call('POST', collectionPath(DEPLOYMENT, NS), deployment('existing')),
      ]),
  );
  const [putA, putB, fresh, existing] = await queued;

  expect((first as { status: number }).status).toBe(201);
  expect([putA.status, putB.status].sort()).toEqual([200, 409]);
  const [won, lost] = putA.status === 200 ? [putA, putB] : [putB, putA];
  expect(lost.json).toMatchObject({ kind: 'Status', code: 409, reason: 'Conflict' });
  expect(fresh.status).toBe(201);
  expect(existing.json).toMatchObject({ kind: 'Status', code: 409, reason: 'AlreadyExists' });

  // The two successes were one transaction, after the first write's own, and the metric counted a batch of 4.
  expect(await batchesOfFour()).toBe(before + 1);
  expect(await writtenBy('contended')).toBe(await writtenBy('fresh'));
  expect(await writtenBy('fresh')).not.toBe(await writtenBy('first'));
  // Each answer is what was committed, and reads see it.
  const stored = (await call('GET', itemPath(DEPLOYMENT, 'contended', NS))).json;
  expect(stored.metadata).toMatchObject({ resourceVersion: won.json.metadata.resourceVersion, labels: won.json.metadata.labels });
  expect((await call('GET', itemPath(DEPLOYMENT, 'fresh', NS))).json.metadata.resourceVersion).toBe(fresh.json.metadata.resourceVersion);
  const changes = await server().sql<{ name: string; event_type: string }>(
    `SELECT name, event_type FROM change_log WHERE namespace = $1 AND resource_version > $2 ORDER BY resource_version`,
    [NS, contended.metadata.resourceVersion],
  );
  expect(changes.map((c) => `${c.event_type} ${c.name}`).sort()).toEqual(['ADDED existing', 'ADDED first', 'ADDED fresh', 'MODIFIED contended']);
});

it('lets the other writes of a batch commit when one of them cannot be stored, and gives that one its error', async () => {
  const store = server().app.get(ObjectStore);
  const key = { group: 'extensions', resource: 'deployments' };
  const object = (name: string, image = 'nginx') => {
    const d = deployment(name) as any;
    d.spec = { ...d.spec, template: { ...d.spec.template, spec: { containers: [{ name: 'c', image }] } } };
    return d;
  };
  const [first, queued] = await withLockHeld(
    () => store.create(key, object('alone')),
    () => [store.create(key, object('before')), store.create(key, object('unstorable', 'a\u0000b')), store.create(key, object('after'))].map((p) => p.then((o) => o, (e) => e)),
  );
  const [before, unstorable, after] = await Promise.all(queued);
  expect((first as any).metadata.resourceVersion).toBeDefined();
  expect(unstorable).toMatchObject({ code: '22P05' }); // PostgreSQL's JSON cannot hold a NUL character
  expect(BigInt(after.metadata.resourceVersion)).toBeGreaterThan(BigInt(before.metadata.resourceVersion));
  expect((await call('GET', itemPath(DEPLOYMENT, 'after', NS))).status).toBe(200);
  expect((await call('GET', itemPath(DEPLOYMENT, 'unstorable', NS))).status).toBe(404);
});
