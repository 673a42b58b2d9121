import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { applyMigrations, readMigrations } from '../src/storage/database/migrator';
import { ALL_RESOURCES } from '../src/storage/changes/change';
import { ChangeHistory } from '../src/storage/changes/change-history';
import { EncryptionAtRest } from '../src/storage/encryption/encryption-at-rest';
import { DatabaseHistory } from '../src/storage/database/database-history';
import { useTestServer } from './support/api';
import { collectionPath, itemPath, kindNamed } from './support/kinds';
import { createTestDatabase, dropTestDatabase } from './support/test-server';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// The storage an operator sees with psql: one row per object, one change-log row per committed change with
// resourceVersions in commit order, whoever made the change (the API or plain SQL).

const DEPLOYMENT = kindNamed('Deployment');
/** What kubectl sends: the object goes at once, with no orphan finalizer to wait on. */
const BACKGROUND = { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' };

// the objects, writes and events of the tests' own requests are compared exactly: no controller writes besides
const { call, server } = useTestServer(['api-changes', 'sql-changes', 'concurrent', 'contention'], WITHOUT_DEPLOYMENT_CONTROLLER);
const deployment = (name: string, namespace: string) => ({
  ...DEPLOYMENT.manifest,
  metadata: { ...DEPLOYMENT.manifest.metadata, name, namespace },
});
/** The object as stored: what the API answers, less resourceVersion and selfLink. */
const asStored = (object: any) => {
  const { resourceVersion: _rv, selfLink: _link, ...metadata } = object.metadata;
  return { ...object, metadata };
};
const changesOf = (namespace: string, name: string) =>
  server().sql<any>(
    `SELECT resource_version::text, event_type, api_group, resource, namespace, name, uid, object, previous_object
     FROM change_log WHERE namespace = $1 AND name = $2 ORDER BY change_log.resource_version`,
    [namespace, name],
  );
const columnsOf = async (table: string) =>
  (await server().sql<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  )).map((c) => c.column_name);

describe('the tables', () => {
  it('have the columns the README documents', async () => {
    expect(await columnsOf('objects')).toEqual([
      'api_group',
      'resource',
      'namespace',
      'name',
      'uid',
      'resource_version',
      'created_at',
      'updated_at',
      'body',
    ]);
    expect(await columnsOf('change_log')).toEqual([
      'resource_version',
      'event_type',
      'api_group',
      'resource',
      'namespace',
      'name',
      'uid',
      'object',
      'previous_object',
      'changed_at',
    ]);
    expect(await columnsOf('object_labels')).toEqual(['api_group', 'resource', 'namespace', 'name', 'label_key', 'label_value']);
  });
});

describe('changes through the API', () => {
  const NS = 'api-changes';
  let created: any;

  beforeAll(async () => {
    created = (await call('POST', collectionPath(DEPLOYMENT, NS), deployment('web', NS))).json;
  });

  it('keep each object in one readable row', async () => {
    const rows = await server().sql<any>('SELECT * FROM objects WHERE namespace = $1', [NS]);
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(row).toMatchObject({
      api_group: 'extensions',
      resource: 'deployments',
      namespace: NS,
      name: 'web',
      uid: created.metadata.uid,
      resource_version: created.metadata.resourceVersion,
      body: asStored(created),
    });
    expect(row.created_at).toBeInstanceOf(Date);
    expect(row.updated_at).toEqual(row.created_at);
  });

  it('keep a body of a few kilobytes in its row, uncompressed, in objects and in the change log', async () => {
    const large = deployment('large', NS);
    large.metadata = { ...large.metadata, annotations: { note: 'x'.repeat(5000) } };
    expect((await call('POST', collectionPath(DEPLOYMENT, NS), large)).status).toBe(201);
    const [row] = await server().sql<any>(
      `SELECT pg_column_compression(o.body) AS object_compression, pg_column_size(o.body) AS object_size,
              pg_column_compression(c.object) AS change_compression
       FROM objects o JOIN change_log c USING (resource_version) WHERE o.namespace = $1 AND o.name = 'large'`,
      [NS],
    );
    expect(row).toEqual({ object_compression: null, object_size: expect.any(Number), change_compression: null });
    expect(row.object_size).toBeGreaterThan(5000);
    expect((await call('DELETE', itemPath(DEPLOYMENT, 'large', NS), BACKGROUND)).status).toBe(200);
  });

  it('are read by the change feed whole, as metadata alone, or not at all, as its subscribers need', async () => {
    const pool = new Pool({ connectionString: server().databaseUrl });
    try {
      const history = new ChangeHistory(pool, new EncryptionAtRest(new Map()), new DatabaseHistory(pool));
      const before = BigInt(created.metadata.resourceVersion) - 1n;
      const { managedFields, ...metadata } = asStored(created).metadata;
      expect(managedFields).toBeDefined();
      const [whole] = (await history.after(before, 1, ['extensions/deployments'], [ALL_RESOURCES])).changes;
      expect(whole.object).toEqual(asStored(created));
      expect(whole.metadataOnly).toBeUndefined();
      const [meta] = (await history.after(before, 1, ['extensions/replicasets'], [ALL_RESOURCES])).changes;
      expect(meta).toMatchObject({ object: { metadata }, metadataOnly: true });
      expect(Object.keys(meta.object as object)).toEqual(['metadata']);
      const [none] = (await history.after(before, 1, [], ['extensions/replicasets'])).changes;
      expect(none).toMatchObject({ name: 'web', object: null });
    } finally {
      await pool.end();
    }
  });

  it('log create, replace and delete, one row each, with strictly increasing resourceVersions', async () => {
    const changed = structuredClone(created);
    changed.spec.replicas = 3;
    const replaced = (await call('PUT', itemPath(DEPLOYMENT, 'web', NS), changed)).json;
    const identical = await call('PUT', itemPath(DEPLOYMENT, 'web', NS), replaced);
    expect(identical.json.metadata.resourceVersion).toBe(replaced.metadata.resourceVersion);
    expect((await call('DELETE', itemPath(DEPLOYMENT, 'web', NS), BACKGROUND)).status).toBe(200);

    const changes = await changesOf(NS, 'web');
    const common = { api_group: 'extensions', resource: 'deployments', namespace: NS, name: 'web', uid: created.metadata.uid };
    expect(changes).toEqual([
      { ...common, event_type: 'ADDED', resource_version: created.metadata.resourceVersion, object: asStored(created), previous_object: null },
      {
        ...common,
        event_type: 'MODIFIED',
        resource_version: replaced.metadata.resourceVersion,
        object: asStored(replaced),
        previous_object: asStored(created),
      },
      { ...common, event_type: 'DELETED', resource_version: expect.any(String), object: asStored(replaced), previous_object: null },
    ]);
    const versions = changes.map((c) => BigInt(c.resource_version));
    expect(versions[0] < versions[1] && versions[1] < versions[2]).toBe(true);
    expect(await server().sql('SELECT 1 FROM objects WHERE namespace = $1', [NS])).toEqual([]);
  });
});

describe('changes made with SQL', () => {
  const NS = 'sql-changes';
  const WEB = itemPath(DEPLOYMENT, 'web', NS);
  const where = `api_group = 'extensions' AND resource = 'deployments' AND namespace = '${NS}' AND name = 'web'`;
  let created: any;

  beforeAll(async () => {
    created = (await call('POST', collectionPath(DEPLOYMENT, NS), deployment('web', NS))).json;
  });

  it('an UPDATE of body is seen through the API with a new resourceVersion and logged as MODIFIED', async () => {
    await server().sql(`UPDATE objects SET body = jsonb_set(body, '{spec,replicas}', '5') WHERE ${where}`);
    const got = (await call('GET', WEB)).json;
    expect(got.spec.replicas).toBe(5);
    expect(BigInt(got.metadata.resourceVersion)).toBeGreaterThan(BigInt(created.metadata.resourceVersion));
    const changes = await changesOf(NS, 'web');
    expect(changes.map((c) => c.event_type)).toEqual(['ADDED', 'MODIFIED']);
    expect(changes[1].resource_version).toBe(got.metadata.resourceVersion);
    expect(changes[1].previous_object.spec.replicas).toBe(2);
    expect(changes[1].object).toEqual(asStored(got));
  });

  it('an UPDATE that leaves body as it was changes and logs nothing', async () => {
    const before = (await call('GET', WEB)).json;
    const count = (await changesOf(NS, 'web')).length;
    await server().sql(`UPDATE objects SET body = body WHERE ${where}`);
    await server().sql(`UPDATE objects SET body = jsonb_set(body, '{spec,replicas}', '5') WHERE ${where}`);
    expect((await call('GET', WEB)).json).toEqual(before);
    expect(await changesOf(NS, 'web')).toHaveLength(count);
  });

  it('an INSERT of api_group, resource and body is a new object, logged as ADDED', async () => {
    const body = { ...asStored(created), metadata: { ...asStored(created).metadata, name: 'inserted' } };
    const [row] = await server().sql<any>(
      `INSERT INTO objects (api_group, resource, body) VALUES ('extensions', 'deployments', $1) RETURNING resource_version::text`,
      [body],
    );
    const got = (await call('GET', itemPath(DEPLOYMENT, 'inserted', NS))).json;
    expect(got.metadata.resourceVersion).toBe(row.resource_version);
    expect(got.metadata.selfLink).toBe(itemPath(DEPLOYMENT, 'inserted', NS));
    expect((await changesOf(NS, 'inserted')).map((c) => [c.event_type, c.resource_version])).toEqual([['ADDED', row.resource_version]]);
  });

  it('a DELETE removes the object and is logged as DELETED', async () => {
    const last = (await call('GET', WEB)).json;
    await server().sql(`DELETE FROM objects WHERE ${where}`);
    expect((await call('GET', WEB)).status).toBe(404);
    const changes = await changesOf(NS, 'web');
    const deleted = changes[changes.length - 1];
    expect(deleted).toMatchObject({ event_type: 'DELETED', object: asStored(last), previous_object: null });
    expect(BigInt(deleted.resource_version)).toBeGreaterThan(BigInt(last.metadata.resourceVersion));
  });
});

describe('resourceVersions', () => {
  it('are distinct under 200 concurrent creates, and a list reports the newest logged one', async () => {
    const NS = 'concurrent';
    const names = Array.from({ length: 200 }, (_, i) => `c-${String(i).padStart(3, '0')}`);
    const versions: string[] = [];
    const queue = [...names];
    const worker = async () => {
      for (let name = queue.shift(); name; name = queue.shift()) {
        const response = await call('POST', collectionPath(DEPLOYMENT, NS), deployment(name, NS));
        expect(response.status).toBe(201);
        versions.push(response.json.metadata.resourceVersion);
      }
    };
    await Promise.all(Array.from({ length: 25 }, worker));

    expect(new Set(versions).size).toBe(200);
    const list = (await call('GET', collectionPath(DEPLOYMENT, NS))).json;
    expect(list.items.map((i: any) => i.metadata.name)).toEqual(names);
    const [{ newest }] = await server().sql<{ newest: string }>('SELECT max(resource_version)::text AS newest FROM change_log');
    expect(list.metadata.resourceVersion).toBe(newest);
    const logged = await server().sql<{ resource_version: string }>(
      `SELECT resource_version::text FROM change_log WHERE namespace = $1 AND event_type = 'ADDED'`,
      [NS],
    );
    expect(logged.map((r) => r.resource_version).sort()).toEqual([...versions].sort());
  });

  it('follow the order in which changes become visible: a writer waits for an uncommitted smaller one', async () => {
    const first = new Client({ connectionString: server().databaseUrl });
    const second = new Client({ connectionString: server().databaseUrl });
    await Promise.all([first.connect(), second.connect()]);
    const insert = (client: Client, name: string) =>
      client.query<{ resource_version: string }>(
        `INSERT INTO objects (api_group, resource, body) VALUES ('extensions', 'deployments', $1) RETURNING resource_version::text`,
        [deployment(name, 'ordering')],
      );
    try {
      await first.query('BEGIN');
      const early = (await insert(first, 'early')).rows[0].resource_version;
      let lateVersion: string | undefined;
      const late = insert(second, 'late').then((r) => (lateVersion = r.rows[0].resource_version));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(lateVersion).toBeUndefined();
      await first.query('COMMIT');
      await late;
      expect(BigInt(lateVersion!)).toBeGreaterThan(BigInt(early));
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
  });
});

describe('compare-and-swap writes', () => {
  const NS = 'contention';
  const path = (name: string) => itemPath(DEPLOYMENT, name, NS);
  const withLabel = (object: any, value: string) => ({ ...object, metadata: { ...object.metadata, labels: { app: 'web', writer: value } } });

  it('let every one of many concurrent unconditional replaces through, each logged once (last write wins)', async () => {
    const created = (await call('POST', collectionPath(DEPLOYMENT, NS), deployment('shared', NS))).json;
    const { resourceVersion: _rv, ...unconditional } = created.metadata;
    const writers = Array.from({ length: 40 }, (_, i) => String(i));
    const responses = await Promise.all(writers.map((w) => call('PUT', path('shared'), withLabel({ ...created, metadata: unconditional }, w))));
    expect(responses.map((r) => r.status)).toEqual(writers.map(() => 200));

    const changes = await changesOf(NS, 'shared');
    expect(changes.map((c) => c.event_type)).toEqual(['ADDED', ...writers.map(() => 'MODIFIED')]);
    const final = (await call('GET', path('shared'))).json;
    expect(final.metadata.resourceVersion).toBe(changes[changes.length - 1].resource_version);
    const last = responses.find((r) => r.json.metadata.resourceVersion === final.metadata.resourceVersion);
    expect(final.metadata.labels).toEqual(last!.json.metadata.labels);
  });

  it('let exactly one of many concurrent replaces of the same resourceVersion through; the others get 409', async () => {
    const created = (await call('POST', collectionPath(DEPLOYMENT, NS), deployment('conditional', NS))).json;
    const writers = Array.from({ length: 20 }, (_, i) => String(i));
    const responses = await Promise.all(writers.map((w) => call('PUT', path('conditional'), withLabel(created, w))));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409 && r.json.reason === 'Conflict')).toHaveLength(19);
    expect((await changesOf(NS, 'conditional')).map((c) => c.event_type)).toEqual(['ADDED', 'MODIFIED']);
  });

  it('answer a second DELETE of an object waiting for its finalizers with the object, not a conflict', async () => {
    const body = deployment('finalized', NS);
    body.metadata.finalizers = ['example.com/keep'];
    expect((await call('POST', collectionPath(DEPLOYMENT, NS), body)).status).toBe(201);
    const first = await call('DELETE', path('finalized'), BACKGROUND);
    const second = await call('DELETE', path('finalized'), BACKGROUND);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.json.metadata).toMatchObject({ name: 'finalized', deletionGracePeriodSeconds: 0, finalizers: ['example.com/keep'] });
    expect(second.json.metadata.deletionTimestamp).toEqual(expect.any(String));
  });
});

describe('migrations', () => {
  it('are applied exactly once when several instances start together on a fresh database', async () => {
    const url = await createTestDatabase();
    const pools = Array.from({ length: 4 }, () => new Pool({ connectionString: url, max: 2 }));
    try {
      const results = await Promise.all(pools.map((pool) => applyMigrations(pool)));
      const names = readMigrations().map((m) => m.name);
      expect(results.filter((applied) => applied.length > 0)).toEqual([names]);
      expect(results.filter((applied) => applied.length === 0)).toHaveLength(pools.length - 1);
      const { rows } = await pools[0].query('SELECT migration_name FROM _prisma_migrations ORDER BY migration_name');
      expect(rows.map((r) => r.migration_name)).toEqual(names);
      expect(await applyMigrations(pools[0])).toEqual([]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
      await dropTestDatabase(url);
    }
  });
});

describe('the operator SQL of the README and docs/operations.md', () => {
  /** The ```sql blocks of a document, in order, from its first line that starts with `from`. */
  const sqlBlocks = (file: string, from = '') => {
    const text = readFileSync(join(__dirname, '..', file), 'utf8');
    return [...text.slice(text.indexOf(`\n${from}`)).matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]);
  };
  /** Runs a block as psql would send it (several statements at once); answers each statement's result. */
  const runBlock = async (block: string) => {
    const client = new Client({ connectionString: server().databaseUrl });
    await client.connect();
    try {
      const results = await client.query(block);
      return (Array.isArray(results) ? results : [results]) as { command: string; rows: any[]; rowCount: number }[];
    } finally {
      await client.end();
    }
  };
  const RS = kindNamed('ReplicaSet');
  let web: any;

  beforeAll(async () => {
    web = (await call('POST', collectionPath(DEPLOYMENT), deployment('web', 'default'))).json;
    const stuck = { ...RS.manifest, metadata: { ...RS.manifest.metadata, finalizers: ['example.com/stuck'] } };
    expect((await call('POST', collectionPath(RS), stuck)).status).toBe(201);
    expect((await call('DELETE', itemPath(RS, 'web-1'), BACKGROUND)).status).toBe(200);
  });

  it('the README’s: the deployments and recent changes through the views, and a repair', async () => {
    const [block] = sqlBlocks('README.md');
    const results = await runBlock(block);
    expect(results.map((r) => r.command)).toEqual(['SELECT', 'SELECT', 'UPDATE']);
    expect(results[0].rows.filter((r) => r.namespace === 'default')).toEqual([
      { namespace: 'default', name: 'web', replicas: 2, images: ['nginx:1.13', 'busybox:1.36'], labels: { app: 'web' }, resource_version: web.metadata.resourceVersion },
    ]);
    expect(results[1].rows.map((r) => [r.event_type, r.resource, r.name])).toContainEqual(['ADDED', 'deployments', 'web']);
    expect(results[2].rowCount).toBe(1);
    expect((await call('GET', itemPath(DEPLOYMENT, 'web'))).json.spec.replicas).toBe(3);
  });

  it('docs/operations.md’s queries', async () => {
    const [queries] = sqlBlocks('docs/operations.md', '## SQL');
    const results = await runBlock(queries);
    expect(results.every((r) => r.command === 'SELECT')).toBe(true);
    expect(results[0].rows).toContainEqual(expect.objectContaining({ namespace: 'default', name: 'web', replicas: 3 }));
    // among them, the objects waiting on finalizers
    expect(results.flatMap((r) => r.rows)).toContainEqual(expect.objectContaining({ resource: 'replicasets', name: 'web-1', finalizers: ['example.com/stuck'] }));
  });

  it('docs/operations.md’s repairs: replicas set, and a stuck finalizer removed', async () => {
    const [, repairs] = sqlBlocks('docs/operations.md', '## SQL');
    const results = await runBlock(repairs);
    expect(results.map((r) => r.command)).toEqual(['BEGIN', 'UPDATE', 'COMMIT', 'UPDATE']);
    expect(results[3].rowCount).toBe(1);
    const stuck = await call('GET', itemPath(RS, 'web-1'));
    expect(stuck.json.metadata.finalizers).toEqual([]);
  });
});
