import { http } from './support/http';
import { collectionPath, itemPath, KINDS } from './support/kinds';
import { createNamespaces } from './support/namespaces';
import { startTestServer, TestServer, WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';
import { WatchClient } from './support/watch-client';

/** What kubectl sends by default; Deployments are otherwise orphaned, i.e. kept until the collector runs. */
const background = { propagationPolicy: 'Background' };

let server: TestServer;
const watches: WatchClient[] = [];
const base = '/apis/extensions/v1beta1';
const deployments = (ns = 'default') => `${base}/namespaces/${ns}/deployments`;

function deployment(name: string, labels: Record<string, string> = {}) {
  return {
    metadata: { name, labels },
    spec: { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
}

async function watch(path: string, headers?: Record<string, string>): Promise<WatchClient> {
  const client = await WatchClient.open(server.url, path, headers);
  watches.push(client);
  return client;
}

const create = async (path: string, body: unknown) => {
  const response = await http(server.url, 'POST', path, { body });
  expect(response.status).toBe(201);
  return response.json;
};
const update = async (path: string, change: (o: any) => void) => {
  const current = (await http(server.url, 'GET', path)).json;
  change(current);
  const response = await http(server.url, 'PUT', path, { body: current });
  expect(response.status).toBe(200);
  return response.json;
};

beforeAll(async () => {
  // the events of the tests' own writes are compared exactly: no controller writes besides
  server = await startTestServer(undefined, WITHOUT_DEPLOYMENT_CONTROLLER);
  const namespaces = ['start-unset', 'start-version', 'too-old', 'ahead', 'labels', 'fields', 'init', 'sql', 'wait', 'reject', 'slow'];
  await createNamespaces(server.url, namespaces);
});
afterEach(() => {
  for (const client of watches.splice(0)) client.close();
});
afterAll(() => server.close());

describe('every watch form of every kind', () => {
  it.each(KINDS)('$kind: ?watch, /watch/ collection and /watch/ item paths see ADDED, MODIFIED and DELETED', async (k) => {
    const name = k.manifest.metadata.name;
    const gv = `/apis/${k.group}/v1beta1`;
    const forms = [
      `${collectionPath(k)}?watch=true`,
      `${gv}/watch${collectionPath(k).slice(gv.length)}`,
      `${gv}/watch${itemPath(k, name).slice(gv.length)}`,
      ...(k.namespaced ? [`${gv}/${k.resource}?watch=1`, `${gv}/watch/${k.resource}`] : []),
    ];
    const clients = await Promise.all(forms.map((form) => watch(`${form}${form.includes('?') ? '&' : '?'}resourceVersion=0`)));
    for (const client of clients) {
      expect(client.status).toBe(200);
      expect(client.headers['content-type']).toBe('application/json');
    }
    await create(collectionPath(k), k.manifest);
    await update(itemPath(k, name), (o) => (o.metadata.labels = { watched: 'yes' }));
    expect((await http(server.url, 'DELETE', itemPath(k, name), { body: background })).status).toBe(200);
    for (const client of clients) {
      const events = await client.count(3);
      expect(client.summary()).toEqual([`ADDED ${name}`, `MODIFIED ${name}`, `DELETED ${name}`]);
      expect(events[0].object).toMatchObject({ kind: k.kind, apiVersion: `${k.group}/v1beta1` });
      expect(events[1].object.metadata.labels).toEqual({ watched: 'yes' });
      const versions = events.map((e) => BigInt(e.object.metadata.resourceVersion));
      expect(versions[0] < versions[1] && versions[1] < versions[2]).toBe(true);
    }
  });
});

describe('start and resourceVersion', () => {
  it('without a resourceVersion sends the current objects as ADDED, then changes', async () => {
    const ns = 'start-unset';
    await create(deployments(ns), deployment('one'));
    await create(deployments(ns), deployment('two'));
    const client = await watch(`${deployments(ns)}?watch=true`);
    await client.count(2);
    expect(client.summary().sort()).toEqual(['ADDED one', 'ADDED two']);
    await create(deployments(ns), deployment('three'));
    await client.count(3);
    expect(client.summary()[2]).toBe('ADDED three');
  });

  it('from a resourceVersion sends exactly the changes after it, in order', async () => {
    const ns = 'start-version';
    const first = await create(deployments(ns), deployment('a'));
    await update(`${deployments(ns)}/a`, (o) => (o.metadata.labels = { step: '1' }));
    await create(deployments(ns), deployment('b'));
    await http(server.url, 'DELETE', `${deployments(ns)}/a`, { body: background });
    const client = await watch(`${deployments(ns)}?watch=true&resourceVersion=${first.metadata.resourceVersion}`);
    await client.count(3);
    expect(client.summary()).toEqual(['MODIFIED a', 'ADDED b', 'DELETED a']);
    await create(deployments(ns), deployment('c'));
    await client.count(4);
    expect(client.summary()[3]).toBe('ADDED c');
  });

  it('answers a version older than the retained history with one 410 ERROR event, then ends', async () => {
    const ns = 'too-old';
    const created = await create(deployments(ns), deployment('x'));
    await update(`${deployments(ns)}/x`, (o) => (o.metadata.labels = { v: '2' }));
    const rv = BigInt(created.metadata.resourceVersion);
    await server.sql('DELETE FROM change_log WHERE resource_version <= $1', [rv.toString()]);
    await server.sql('UPDATE change_log_compaction SET compacted_through = $1', [rv.toString()]);
    const client = await watch(`${deployments(ns)}?watch=true&resourceVersion=${rv - 1n}`);
    expect(client.status).toBe(200);
    await client.end();
    expect(client.events).toEqual([
      {
        type: 'ERROR',
        object: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: `too old resource version: ${rv - 1n} (${rv})`,
          reason: 'Gone',
          code: 410,
        },
      },
    ]);
    const fine = await watch(`${deployments(ns)}?watch=true&resourceVersion=${rv}`);
    await fine.count(1);
    expect(fine.summary()).toEqual(['MODIFIED x']);
  });

  it('waits for changes after a version newer than the newest', async () => {
    const ns = 'ahead';
    const [{ max }] = await server.sql<{ max: string }>('SELECT max(resource_version)::text AS max FROM change_log');
    const client = await watch(`${deployments(ns)}?watch=true&resourceVersion=${BigInt(max) + 1n}`);
    await create(deployments(ns), deployment('skipped'));
    await create(deployments(ns), deployment('seen'));
    await client.count(1);
    expect(client.summary()).toEqual(['ADDED seen']);
  });

  it('ends the stream cleanly after timeoutSeconds', async () => {
    const client = await watch(`${deployments('timeout')}?watch=true&timeoutSeconds=1`);
    const started = Date.now();
    await client.end(5000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(client.events).toEqual([]);
  });
});

describe('selectors', () => {
  it('sends an object entering a label selector as ADDED and one leaving it as DELETED (with its old state)', async () => {
    const ns = 'labels';
    const client = await watch(`${deployments(ns)}?watch=true&labelSelector=tier%3Dweb`);
    await create(deployments(ns), deployment('p', { tier: 'db' }));
    await update(`${deployments(ns)}/p`, (o) => (o.metadata.labels = { tier: 'web' }));
    await update(`${deployments(ns)}/p`, (o) => (o.metadata.labels = { tier: 'web', more: 'x' }));
    await update(`${deployments(ns)}/p`, (o) => (o.metadata.labels = { tier: 'db' }));
    await http(server.url, 'DELETE', `${deployments(ns)}/p`, { body: background });
    await create(deployments(ns), deployment('q', { tier: 'web' }));
    await client.count(4);
    expect(client.summary()).toEqual(['ADDED p', 'MODIFIED p', 'DELETED p', 'ADDED q']);
    expect(client.events[2].object.metadata.labels).toEqual({ tier: 'web', more: 'x' });
  });

  it('filters by field selector, and refuses a name path combined with a fieldSelector', async () => {
    const ns = 'fields';
    const client = await watch(`${deployments(ns)}?watch=true&fieldSelector=metadata.name%3Dkeep`);
    await create(deployments(ns), deployment('drop'));
    await create(deployments(ns), deployment('keep'));
    await client.count(1);
    expect(client.summary()).toEqual(['ADDED keep']);
    const both = await http(server.url, 'GET', `${base}/watch/namespaces/${ns}/deployments/keep?fieldSelector=metadata.name%3Dkeep`);
    expect(both.status).toBe(400);
    expect(both.json.message).toBe('both a name and a field selector provided; please provide one or the other.');
  });

  it('hides uninitialized objects unless includeUninitialized, and shows initialization as ADDED', async () => {
    const ns = 'init';
    const plain = await watch(`${deployments(ns)}?watch=true`);
    const all = await watch(`${deployments(ns)}?watch=true&includeUninitialized=true`);
    const pending = { ...deployment('u'), metadata: { name: 'u', initializers: { pending: [{ name: 'i.example.com' }] } } };
    const accepted = await http(server.url, 'POST', `${deployments(ns)}?includeUninitialized=1`, { body: pending });
    expect(accepted.status).toBe(202);
    await all.count(1);
    await update(`${deployments(ns)}/u`, (o) => (o.metadata.initializers = null));
    await plain.count(1);
    await all.count(2);
    expect(plain.summary()).toEqual(['ADDED u']);
    expect(all.summary()).toEqual(['ADDED u', 'MODIFIED u']);
  });
});

describe('changes from outside the API', () => {
  it('delivers an UPDATE and a DELETE made by SQL', async () => {
    const ns = 'sql';
    await create(deployments(ns), deployment('s'));
    const client = await watch(`${deployments(ns)}?watch=true`);
    await client.count(1);
    await server.sql(`UPDATE objects SET body = jsonb_set(body, '{metadata,labels}', '{"by":"sql"}') WHERE namespace = $1`, [ns]);
    await server.sql(`DELETE FROM objects WHERE namespace = $1`, [ns]);
    await client.count(3);
    expect(client.summary()).toEqual(['ADDED s', 'MODIFIED s', 'DELETED s']);
    expect(client.events[1].object.metadata.labels).toEqual({ by: 'sql' });
  });
});

describe('initialization on create', () => {
  it('answers the create once the last initializer is removed', async () => {
    const ns = 'wait';
    const body = { ...deployment('w'), metadata: { name: 'w', initializers: { pending: [{ name: 'i.example.com' }] } } };
    const creating = http(server.url, 'POST', deployments(ns), { body });
    const observer = await watch(`${deployments(ns)}?watch=true&includeUninitialized=true`);
    await observer.count(1);
    await update(`${deployments(ns)}/w`, (o) => (o.metadata.initializers.pending = []));
    const created = await creating;
    expect(created.status).toBe(201);
    expect(created.json.metadata.initializers).toBeUndefined();
  });

  it('answers with the initializer result as the error, and deletes the object', async () => {
    const ns = 'reject';
    const body = { ...deployment('r'), metadata: { name: 'r', initializers: { pending: [{ name: 'i.example.com' }] } } };
    const creating = http(server.url, 'POST', deployments(ns), { body });
    const observer = await watch(`${deployments(ns)}?watch=true&includeUninitialized=true`);
    await observer.count(1);
    await update(`${deployments(ns)}/r`, (o) => {
      o.metadata.initializers.result = { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'denied by policy', reason: 'Forbidden', code: 403 };
    });
    const refused = await creating;
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ reason: 'Forbidden', message: 'denied by policy' });
    expect((await http(server.url, 'GET', `${deployments(ns)}/r`)).status).toBe(404);
  });

  it('times out with 504 after the request timeout', async () => {
    const body = { ...deployment('t'), metadata: { name: 't', initializers: { pending: [{ name: 'i.example.com' }] } } };
    const response = await http(server.url, 'POST', `${deployments('slow')}?timeout=500ms`, { body });
    expect(response.status).toBe(504);
    expect(response.json.reason).toBe('Timeout');
  });
});

describe('refusals', () => {
  it('refuses YAML for a watch with 406 and a non-numeric resourceVersion with 400', async () => {
    const yaml = await http(server.url, 'GET', `${deployments()}?watch=true`, { headers: { accept: 'application/yaml' } });
    expect(yaml.status).toBe(406);
    const bad = await http(server.url, 'GET', `${deployments()}?watch=true&resourceVersion=abc`);
    expect(bad.status).toBe(400);
  });
});
