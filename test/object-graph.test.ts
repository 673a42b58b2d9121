import { Pool, QueryConfig } from 'pg';
import { PG_POOL } from '../src/storage/database/database.tokens';
import { ObjectGraph } from '../src/storage/object-graph';
import { useTestServer } from './support/api';

// The garbage collector's lookup of an owner's dependents, over many objects that have no owners (most of a cluster's
// objects, and all of them just after a bulk load): it finds exactly the dependents, through the owner references
// index, without reading the index entries of the objects that have none.

const { server } = useTestServer();
const OWNERLESS = 10_000;

/** ConfigMap-like rows written straight into the table, as an operator's SQL or a restore would. */
async function insertObjects(count: number, prefix: string, owners: string[] = []): Promise<void> {
  const ownerReferences = owners.map((uid) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: `owner-${uid}`, uid }));
  await server().sql(
    `INSERT INTO objects (api_group, resource, body)
     SELECT '', 'configmaps', jsonb_build_object('apiVersion', 'v1', 'kind', 'ConfigMap',
       'metadata', jsonb_build_object('name', $1 || i, 'namespace', 'graph', 'uid', $1 || i || '-uid')
                   || CASE WHEN $2::jsonb = '[]' THEN '{}' ELSE jsonb_build_object('ownerReferences', $2::jsonb) END)
     FROM generate_series(1, $3) AS i`,
    [prefix, JSON.stringify(ownerReferences), count],
  );
}

beforeAll(async () => {
  await insertObjects(OWNERLESS, 'plain-');
  await insertObjects(2, 'child-of-a-', ['uid-a']);
  await insertObjects(1, 'child-of-both-', ['uid-a', 'uid-b']);
});

it('finds the objects that name an owner among their owner references, and no others', async () => {
  const graph = server().app.get(ObjectGraph);
  const names = async (uid: string) => (await graph.dependentsOf(uid)).map((row) => row.object.metadata.name).sort();
  expect(await names('uid-a')).toEqual(['child-of-a-1', 'child-of-a-2', 'child-of-both-1']);
  expect(await names('uid-b')).toEqual(['child-of-both-1']);
  expect(await names('plain-1-uid')).toEqual([]);
});

it('looks dependents up through the owner references index, reading a few pages whatever the objects without owners', async () => {
  const statements: QueryConfig[] = [];
  const pool = server().app.get<symbol, Pool>(PG_POOL);
  const recording = new ObjectGraph({ query: (text: string, values: unknown[]) => (statements.push({ text, values }), pool.query(text, values)) } as unknown as Pool);
  await recording.dependentsOf('uid-a');
  expect(statements).toHaveLength(1);
  const [{ text, values }] = statements;
  const [row] = await server().sql<{ 'QUERY PLAN': [{ Plan: Record<string, unknown> }] }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, values);
  const plan = row['QUERY PLAN'][0].Plan;
  expect(JSON.stringify(plan)).toContain('objects_owner_references_idx');
  expect(Number(plan['Shared Hit Blocks']) + Number(plan['Shared Read Blocks'])).toBeLessThan(20);
});
