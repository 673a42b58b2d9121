import { Pool } from 'pg';
import { matchesLabels, parseLabelSelector } from '../src/apimachinery/selectors/label-selector';
import { applyMigrations, readMigrations } from '../src/storage/database/migrator';
import { useTestServer } from './support/api';
import { createTestDatabase, dropTestDatabase, WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

// Pages of label selections, which read the keys of their label values from object_labels (migration 0026), answer
// what the whole list filtered by the client answers; and object_labels follows every write of `objects`, through the
// API or by SQL.

const NAMESPACES = ['lp-a', 'lp-b', 'lp-c'];
const { call, server } = useTestServer([...NAMESPACES, 'lp-sql'], WITHOUT_DEPLOYMENT_CONTROLLER);
const base = '/apis/extensions/v1beta1';
const collection = (namespace?: string) => (namespace ? `${base}/namespaces/${namespace}/deployments` : `${base}/deployments`);

function deployment(name: string, namespace: string, labels: Record<string, string>) {
  return {
    metadata: { name, namespace, labels },
    spec: { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
}

/** The labels of the i-th fixture: 4 shards, two tiers, a canary in five; one with an empty shard, one without labels. */
function labelsOf(i: number): Record<string, string> {
  if (i === 7) return { shard: '' };
  if (i === 8) return {};
  return { shard: `s${i % 4}`, tier: i % 3 === 0 ? 'db' : 'web', ...(i % 5 === 0 ? { canary: 'true' } : {}) };
}

interface Item {
  metadata: { namespace: string; name: string; labels?: Record<string, string> };
}

/** What kubectl sends: the object goes at once, with no orphan finalizer to wait on. */
const BACKGROUND = { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' };

const keyOf = (item: Item) => `${item.metadata.namespace}/${item.metadata.name}`;

/** Every page of a list, `limit` at a time, following the continue tokens; checks that only the last page is short. */
async function pages(query: string, limit: number, namespace?: string): Promise<string[]> {
  const keys: string[] = [];
  let token = '';
  for (;;) {
    const response = await call('GET', `${collection(namespace)}?${query}&limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
    expect(response.status).toBe(200);
    keys.push(...response.json.items.map(keyOf));
    token = response.json.metadata.continue ?? '';
    if (!token) return keys;
    expect(response.json.items).toHaveLength(limit);
  }
}

/** The whole list, without selectors, in the server's key order. */
async function everything(namespace?: string): Promise<Item[]> {
  return (await call('GET', collection(namespace))).json.items;
}

/** What a label and field selector keep of `items`, as the client would filter them. */
function filtered(items: Item[], labelSelector: string, fieldSelector?: string): string[] {
  const requirements = parseLabelSelector(labelSelector);
  const [field, value] = fieldSelector?.split('!=') ?? [];
  return items
    .filter((item) => matchesLabels(requirements, item.metadata.labels))
    .filter((item) => field === undefined || (field === 'metadata.name' ? item.metadata.name : item.metadata.namespace) !== value)
    .map(keyOf);
}

beforeAll(async () => {
  for (let i = 0; i < 45; i++) {
    const created = await call('POST', collection(NAMESPACES[i % 3]), deployment(`d-${i}`, NAMESPACES[i % 3], labelsOf(i)));
    expect(created.status).toBe(201);
  }
});

describe('a page of a label selection', () => {
  const selectors = [
    'shard=s1',
    'shard==s2',
    'shard in (s1,s3)',
    'shard in (s0,s1,s2,s3,s9)',
    'shard=s1,tier=web',
    'shard in (s1,s2),tier!=db',
    'shard=s2,!canary',
    'shard in (s0,s2),canary',
    'shard in (s0,s2),tier in (web)',
    'tier=db,shard notin (s0)',
    'shard=s9',
    'shard=s1,shard=s2',
    'shard=',
  ];

  it.each(selectors)('%j answers the whole list filtered, page by page, in every namespace and in one', async (selector) => {
    const query = `labelSelector=${encodeURIComponent(selector)}`;
    for (const namespace of [undefined, 'lp-b']) {
      const expected = filtered(await everything(namespace), selector);
      const unpaged = (await call('GET', `${collection(namespace)}?${query}`)).json.items.map(keyOf);
      expect(unpaged).toEqual(expected);
      for (const limit of [1, 4, 7, 100]) expect(await pages(query, limit, namespace)).toEqual(expected);
    }
  });

  it.each([
    ['shard in (s1,s3)', 'metadata.name!=d-13'],
    ['shard=s2,tier=web', 'metadata.namespace!=lp-a'],
  ])('%j with the field selector %j answers the whole list filtered', async (selector, fieldSelector) => {
    const query = `labelSelector=${encodeURIComponent(selector)}&fieldSelector=${encodeURIComponent(fieldSelector)}`;
    const expected = filtered(await everything(), selector, fieldSelector);
    expect(expected.length).toBeGreaterThan(3);
    for (const limit of [1, 3, 50]) expect(await pages(query, limit)).toEqual(expected);
  });

  it('continued at the first page’s version answers that state, whatever changed since', async () => {
    const selector = 'shard=s1';
    const first = (await call('GET', `${collection()}?labelSelector=${selector}&limit=2`)).json;
    const version = first.metadata.resourceVersion;
    const atFirst = filtered(await everything(), selector);
    // a match that stops matching, one that starts to, one deleted, and one created
    const [leaving, , deleted] = atFirst.slice(2).map((key) => key.split('/'));
    const joining = filtered(await everything(), 'shard=s3')[5].split('/');
    const relabel = async ([namespace, name]: string[], shard: string) => {
      const current = (await call('GET', `${collection(namespace)}/${name}`)).json;
      current.metadata.labels.shard = shard;
      expect((await call('PUT', `${collection(namespace)}/${name}`, current)).status).toBe(200);
    };
    await relabel(leaving, 's3');
    await relabel(joining, 's1');
    expect((await call('DELETE', `${collection(deleted[0])}/${deleted[1]}`, BACKGROUND)).status).toBe(200);
    expect((await call('POST', collection('lp-c'), deployment('d-99', 'lp-c', { shard: 's1' }))).status).toBe(201);

    const rest: string[] = [];
    let token = first.metadata.continue;
    while (token) {
      const page = (await call('GET', `${collection()}?labelSelector=${selector}&limit=2&continue=${encodeURIComponent(token)}`)).json;
      expect(page.metadata.resourceVersion).toBe(version);
      rest.push(...page.items.map(keyOf));
      token = page.metadata.continue;
    }
    expect([...first.items.map(keyOf), ...rest]).toEqual(atFirst);
    const exact = (await call('GET', `${collection()}?labelSelector=${selector}&resourceVersion=${version}&resourceVersionMatch=Exact`)).json;
    expect(exact.items.map(keyOf)).toEqual(atFirst);
    expect(await pages(`labelSelector=${selector}`, 3)).toEqual(filtered(await everything(), selector));
  });
});

/** The rows object_labels lacks or has too many, against the string labels of every object (empty when in step). */
const outOfStep = () =>
  server().sql(`
    WITH expected AS (
      SELECT api_group, resource, namespace, name, key AS label_key, value #>> '{}' AS label_value
      FROM objects, jsonb_each(CASE jsonb_typeof(body -> 'metadata' -> 'labels') WHEN 'object' THEN body -> 'metadata' -> 'labels' ELSE '{}' END)
      WHERE jsonb_typeof(value) = 'string'
    ), held AS (SELECT api_group, resource, namespace, name, label_key, label_value FROM object_labels)
    (SELECT 'missing' AS problem, * FROM (TABLE expected EXCEPT ALL TABLE held) missing)
    UNION ALL
    (SELECT 'extra' AS problem, * FROM (TABLE held EXCEPT ALL TABLE expected) extra)`);

const labelRows = (name: string) =>
  server().sql<{ label_key: string; label_value: string; xmin: string }>(
    `SELECT label_key, label_value, xmin::text FROM object_labels WHERE namespace = 'lp-sql' AND name = $1 ORDER BY label_key`,
    [name],
  );

const labelPage = async (selector: string) =>
  (await call('GET', `${collection('lp-sql')}?labelSelector=${encodeURIComponent(selector)}&limit=10`)).json.items.map((item: Item) => item.metadata.name);

describe('object_labels', () => {
  const setLabels = (name: string, labels: unknown) =>
    server().sql(`UPDATE objects SET body = jsonb_set(body, '{metadata,labels}', $2::jsonb) WHERE namespace = 'lp-sql' AND name = $1`, [name, JSON.stringify(labels)]);

  it('is in step with the objects written through the API', async () => {
    expect(await outOfStep()).toEqual([]);
  });

  it('follows SQL inserts, label changes, renames and deletes, and is not touched by other updates', async () => {
    const body = { apiVersion: 'extensions/v1beta1', kind: 'Deployment', ...deployment('q', 'lp-sql', { team: 'a', shard: 's1' }) };
    await server().sql(`INSERT INTO objects (api_group, resource, body) VALUES ('extensions', 'deployments', $1)`, [body]);
    await server().sql(`INSERT INTO objects (api_group, resource, body) VALUES ('extensions', 'deployments', $1)`, [{ ...body, metadata: { ...body.metadata, name: 'r' } }]);
    expect(await outOfStep()).toEqual([]);
    expect(await labelPage('team=a')).toEqual(['q', 'r']);

    const before = await labelRows('q');
    await server().sql(`UPDATE objects SET body = jsonb_set(body, '{spec,replicas}', '5') WHERE namespace = 'lp-sql' AND name = 'q'`);
    expect(await labelRows('q')).toEqual(before);

    await setLabels('q', { team: 'b', shard: 's1', added: 'yes' });
    const after = await labelRows('q');
    expect(after.map((row) => [row.label_key, row.label_value])).toEqual([['added', 'yes'], ['shard', 's1'], ['team', 'b']]);
    expect(after.find((row) => row.label_key === 'shard')!.xmin).toBe(before.find((row) => row.label_key === 'shard')!.xmin);
    expect(await labelPage('team=a')).toEqual(['r']);
    expect(await labelPage('team in (a,b)')).toEqual(['q', 'r']);

    await server().sql(`UPDATE objects SET body = jsonb_set(body, '{metadata,name}', '"q2"') WHERE namespace = 'lp-sql' AND name = 'q'`);
    expect(await labelRows('q')).toEqual([]);
    expect(await labelPage('team=b')).toEqual(['q2']);

    await setLabels('r', { count: 5, flag: true, team: 'a' });
    expect((await labelRows('r')).map((row) => row.label_key)).toEqual(['team']);
    await setLabels('r', 'not an object');
    expect(await labelRows('r')).toEqual([]);
    expect(await labelPage('team=a')).toEqual([]);
    await server().sql(`UPDATE objects SET body = body #- '{metadata,labels}' WHERE namespace = 'lp-sql'`);
    expect(await labelPage('team in (a,b)')).toEqual([]);
    await setLabels('r', { team: 'a' });
    expect(await outOfStep()).toEqual([]);

    await server().sql(`DELETE FROM objects WHERE namespace = 'lp-sql'`);
    expect(await labelPage('team=a')).toEqual([]);
    expect(await outOfStep()).toEqual([]);
  });

  it('is in step after API updates and deletes', async () => {
    const path = `${collection('lp-sql')}/api`;
    expect((await call('POST', collection('lp-sql'), deployment('api', 'lp-sql', { team: 'a' }))).status).toBe(201);
    const current = (await call('GET', path)).json;
    current.metadata.labels = { team: 'c', other: 'x' };
    expect((await call('PUT', path, current)).status).toBe(200);
    expect(await labelPage('team=c,other=x')).toEqual(['api']);
    expect(await outOfStep()).toEqual([]);
    expect((await call('DELETE', path, BACKGROUND)).status).toBe(200);
    expect(await outOfStep()).toEqual([]);
  });
});

describe('migration 0026', () => {
  it('fills object_labels with the labels of the objects stored before it', async () => {
    const databaseUrl = await createTestDatabase();
    const pool = new Pool({ connectionString: databaseUrl });
    try {
      await applyMigrations(pool, readMigrations().filter((migration) => migration.name < '0026'));
      const stored = (name: string, labels: unknown) => ({ apiVersion: 'extensions/v1beta1', kind: 'Deployment', metadata: { name, namespace: 'old', labels } });
      for (const body of [stored('a', { app: 'web', n: 1 }), stored('b', 'none'), stored('c', { app: 'db' })]) {
        await pool.query(`INSERT INTO objects (api_group, resource, body) VALUES ('extensions', 'deployments', $1)`, [body]);
      }
      await applyMigrations(pool);
      const { rows } = await pool.query(`SELECT api_group, resource, namespace, name, label_key, label_value FROM object_labels ORDER BY name`);
      expect(rows).toEqual([
        { api_group: 'extensions', resource: 'deployments', namespace: 'old', name: 'a', label_key: 'app', label_value: 'web' },
        { api_group: 'extensions', resource: 'deployments', namespace: 'old', name: 'c', label_key: 'app', label_value: 'db' },
      ]);
    } finally {
      await pool.end();
      await dropTestDatabase(databaseUrl);
    }
  });
});
