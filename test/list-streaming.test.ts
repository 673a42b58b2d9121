import { get as httpGet, IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'pg';
import { load as loadYaml } from 'js-yaml';
import { decodeEnveloped, encodeEnveloped } from '../src/apiserver/codec/protobuf/envelope';
import { ListSource, listStream } from '../src/apiserver/codec/list-stream';
import { StatusError } from '../src/apimachinery/errors/status-error';
import { PG_POOL } from '../src/storage/database/database.tokens';
import { WatchService } from '../src/watch/watch.service';
import { http } from './support/http';
import { PROTOBUF, withoutNulls } from './support/protobuf';
import { createNamespaces } from './support/namespaces';
import { startTestServer, TestServer, WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';

let server: TestServer;
const base = '/apis/extensions/v1beta1';
const deployments = (ns: string) => `${base}/namespaces/${ns}/deployments`;
/** more objects than a few cursor batches hold */
const COPIES = 1040;
/** large objects, more bytes in all than the sockets between server and client buffer */
const LARGE = 1500;
const LARGE_BYTES = 20_000;

/** Values that each media type writes in its own way: escapes, other scripts, YAML block scalars and blank lines. */
const ANNOTATIONS = {
  escapes: 'tab\there, "quoted", \u2028 and é ü 漢字 🎉',
  multiline: 'first\n\n  indented after a blank line\nlast\n',
  'leading-space': '  starts with spaces',
  number: '007',
  yes: 'yes',
};

function deployment(name: string, namespace: string) {
  return {
    metadata: { name, namespace, labels: { app: 'stream' }, annotations: ANNOTATIONS },
    spec: { replicas: 2, template: { metadata: { labels: { app: 'stream' } }, spec: { containers: [{ name: 'c', image: 'nginx', args: ['{', '}]', ''] }] } } },
  };
}

/** Copies of one stored object under other names, written with SQL (the triggers still version them). */
async function copies(namespace: string, count: number, annotation = ''): Promise<void> {
  await server.sql(
    `INSERT INTO objects (api_group, resource, body)
     SELECT api_group, resource,
            jsonb_set(jsonb_set(jsonb_set(body, '{metadata,name}', to_jsonb(format('copy-%s', lpad(g::text, 5, '0')))),
                      '{metadata,uid}', to_jsonb(gen_random_uuid()::text)),
                      '{metadata,annotations,big}', to_jsonb($2::text))
     FROM objects, generate_series(1, $3::int) g
     WHERE api_group = 'extensions' AND resource = 'deployments' AND namespace = $1 AND name = 'template'`,
    [namespace, annotation, count],
  );
}

const pool = () => server.app.get<symbol, Pool>(PG_POOL);

interface WatchEvent {
  type: string;
  object: { kind: string; metadata: { name: string; resourceVersion: string; annotations?: Record<string, string> } };
}

/** Reads the JSON lines of a watch until `enough` holds for the events read; the response is left flowing. */
function readEvents(response: IncomingMessage, enough: (events: WatchEvent[]) => boolean): Promise<WatchEvent[]> {
  const events: WatchEvent[] = [];
  let pending = '';
  return new Promise((resolve, reject) => {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() as string;
      for (const line of lines) events.push(JSON.parse(line) as WatchEvent);
      if (enough(events)) resolve(events);
    });
    response.on('close', () => reject(new Error(`the watch ended after ${events.length} events`)));
    response.resume();
  });
}

/** The server's connections inside a transaction: a list's open cursor. */
async function openListTransactions(): Promise<number> {
  const rows = await server.sql<{ count: string }>(
    `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%' AND pid <> pg_backend_pid()`,
  );
  return Number(rows[0].count);
}

/** The process of the connection a list waits on between two FETCHes (the client not reading), once there is one. */
async function waitingList(): Promise<number | undefined> {
  for (let i = 0; i < 100; i++) {
    const [row] = await server.sql<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction' AND query LIKE 'FETCH%'`,
    );
    if (row) return row.pid;
    await sleep(100);
  }
  return undefined;
}

/** Waits until every connection the server's pool opened is back in it, idle. */
async function poolSettled(): Promise<{ total: number; idle: number }> {
  for (let i = 0; i < 100 && pool().idleCount !== pool().totalCount; i++) await sleep(50);
  return { total: pool().totalCount, idle: pool().idleCount };
}

/** A list request read only until its first bytes arrive, then left paused (those bytes still to be read). */
function startReading(path: string, headers: Record<string, string> = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    httpGet(`${server.url}${path}`, { headers }, (response) => {
      response.once('data', (chunk: Buffer) => {
        response.pause();
        response.unshift(chunk);
        resolve(response);
      });
    }).on('error', reject);
  });
}

/**
 * The server waits for a paused client (backpressure): its cursor is still open, the rows not all read; once the
 * client goes away, the cursor and the connection are freed.
 */
async function expectHeldUntilClientLeaves(response: IncomingMessage): Promise<void> {
  try {
    expect(await waitingList()).toBeDefined();
    // the server may still be fetching the rows the socket's buffers take (its transaction active, not idle)
    let open = await openListTransactions();
    for (let i = 0; i < 50 && open !== 1; i++) open = await sleep(100).then(openListTransactions);
    expect(open).toBe(1);
  } finally {
    response.destroy();
  }
  expect(await poolSettled()).toEqual({ total: pool().totalCount, idle: pool().totalCount });
  expect(await openListTransactions()).toBe(0);
  expect(pool().waitingCount).toBe(0);
}

beforeAll(async () => {
  // a streamed list is compared byte for byte with the list read whole, and the pool's connections counted: no
  // controller may write the Deployments or hold a connection meanwhile
  server = await startTestServer(undefined, WITHOUT_DEPLOYMENT_CONTROLLER);
  await createNamespaces(server.url, ['streamed', 'large', 'watched']);
  for (const ns of ['streamed', 'large']) {
    const created = await http(server.url, 'POST', deployments(ns), { body: deployment('template', ns) });
    expect(created.status).toBe(201);
    // an age that does not change between two requests, for the Tables' AGE column
    await server.sql(`UPDATE objects SET body = jsonb_set(body, '{metadata,creationTimestamp}', '"2020-01-01T00:00:00Z"') WHERE namespace = $1`, [ns]);
  }
  await copies('streamed', COPIES);
  await copies('large', LARGE, 'x'.repeat(LARGE_BYTES));
});
afterAll(() => server.close());

describe('a whole list is streamed', () => {
  const list = deployments('streamed');
  // a page as large as the list is read whole: the unstreamed encoding of the same list
  const whole = `${list}?limit=5000`;

  it('in JSON, the same bytes as the list read whole', async () => {
    const [streamed, read] = [await http(server.url, 'GET', list), await http(server.url, 'GET', whole)];
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toBe('application/json');
    expect(streamed.json.items).toHaveLength(COPIES + 1);
    expect(streamed.json.metadata).toEqual({ selfLink: list, resourceVersion: read.json.metadata.resourceVersion });
    expect(streamed.text).toBe(read.text);
  });

  it('in indented JSON and in YAML, the same bytes as the list read whole', async () => {
    for (const headers of [{ 'user-agent': 'curl/8' }, { accept: 'application/yaml' }] as Record<string, string>[]) {
      const [streamed, read] = [await http(server.url, 'GET', list, { headers }), await http(server.url, 'GET', whole, { headers })];
      expect(streamed.status).toBe(200);
      expect(streamed.text).toBe(read.text);
    }
    const yaml = (await http(server.url, 'GET', list, { headers: { accept: 'application/yaml' } })).text;
    const json = (await http(server.url, 'GET', list)).json;
    expect(loadYaml(yaml)).toEqual(json);
    expect(json.items[7].metadata.annotations).toEqual({ ...ANNOTATIONS, big: '' });
  });

  it('in protobuf, the bytes the list encoded whole has, decoding to the JSON list', async () => {
    const json = (await http(server.url, 'GET', list)).json;
    const streamed = await http(server.url, 'GET', list, { headers: { accept: PROTOBUF } });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toBe(PROTOBUF);
    expect(streamed.bytes.equals(encodeEnveloped(json))).toBe(true);
    expect(decodeEnveloped(streamed.bytes)).toEqual(withoutNulls(json));
  });

  it('as an empty list in every media type, as it is read whole', async () => {
    const empty = deployments('nothing-here');
    for (const headers of [{}, { 'user-agent': 'curl/8' }, { accept: 'application/yaml' }] as Record<string, string>[]) {
      const [streamed, read] = [await http(server.url, 'GET', empty, { headers }), await http(server.url, 'GET', `${empty}?limit=5`, { headers })];
      expect(streamed.status).toBe(200);
      expect(streamed.text).toBe(read.text);
    }
    const protobuf = await http(server.url, 'GET', empty, { headers: { accept: PROTOBUF } });
    const json = (await http(server.url, 'GET', empty)).json;
    expect(json.items).toEqual([]);
    expect(protobuf.bytes.equals(encodeEnveloped(json))).toBe(true);
  });

  it('with selectors and at an exact resourceVersion, as the pages of the same list', async () => {
    const first = await http(server.url, 'GET', list);
    await server.sql(`UPDATE objects SET body = jsonb_set(body, '{metadata,labels,app}', '"moved"') WHERE namespace = 'streamed' AND name = 'copy-00002'`);
    const at = `resourceVersion=${first.json.metadata.resourceVersion}&resourceVersionMatch=Exact`;
    const exact = await http(server.url, 'GET', `${list}?${at}&labelSelector=app%3Dstream`);
    const paged = await http(server.url, 'GET', `${list}?${at}&labelSelector=app%3Dstream&limit=5000`);
    expect(exact.status).toBe(200);
    expect(exact.json.items).toHaveLength(COPIES + 1);
    expect(exact.text).toBe(paged.text);
    const now = await http(server.url, 'GET', `${list}?labelSelector=app%3Dstream`);
    expect(now.json.items).toHaveLength(COPIES);
  });
});

describe('a Table of a whole list is streamed', () => {
  const list = deployments('streamed');
  const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
  const TABLE_YAML = 'application/yaml;as=Table;v=v1beta1;g=meta.k8s.io';

  it('in JSON, the same bytes as the Table of the list read whole, whatever the rows include', async () => {
    for (const includeObject of ['', 'None', 'Metadata', 'Object']) {
      const query = includeObject ? `includeObject=${includeObject}&` : '';
      const headers = { accept: TABLE };
      const streamed = await http(server.url, 'GET', `${list}?${query}`, { headers });
      const read = await http(server.url, 'GET', `${list}?${query}limit=5000`, { headers });
      expect(streamed.status).toBe(200);
      expect(streamed.headers.get('content-type')).toBe(`application/json;as=Table;v=v1;g=meta.k8s.io`);
      expect(streamed.json.kind).toBe('Table');
      expect(streamed.json.rows).toHaveLength(COPIES + 1);
      expect(streamed.json.metadata).toEqual({ selfLink: list, resourceVersion: read.json.metadata.resourceVersion });
      expect(streamed.text).toBe(read.text);
    }
    const row = async (query: string) => {
      const rows = (await http(server.url, 'GET', `${list}?${query}`, { headers: { accept: TABLE } })).json.rows as { cells: unknown[]; object?: unknown }[];
      return rows.find((r) => r.cells[0] === 'copy-00003');
    };
    expect(await row('includeObject=None')).toEqual({ cells: ['copy-00003', '0/2', 0, 0, expect.stringMatching(/^\d+y/), 'c', 'nginx', 'app=stream'] });
    expect((await row(''))?.object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'copy-00003', annotations: ANNOTATIONS } });
    expect((await row('includeObject=Object'))?.object).toMatchObject({ kind: 'Deployment', spec: { replicas: 2 } });
  });

  it('in indented JSON and in YAML, and empty, the same bytes as the Table read whole', async () => {
    const types: Record<string, string>[] = [{ accept: TABLE, 'user-agent': 'curl/8' }, { accept: TABLE_YAML }];
    for (const headers of types) {
      const [streamed, read] = [await http(server.url, 'GET', list, { headers }), await http(server.url, 'GET', `${list}?limit=5000`, { headers })];
      expect(streamed.status).toBe(200);
      expect(streamed.headers.get('content-type')).toBe(read.headers.get('content-type'));
      expect(streamed.text).toBe(read.text);
    }
    const yaml = loadYaml((await http(server.url, 'GET', list, { headers: { accept: TABLE_YAML } })).text) as { rows: unknown[] };
    expect(yaml.rows).toHaveLength(COPIES + 1);
    const empty = deployments('nothing-here');
    for (const headers of [{ accept: TABLE }, ...types]) {
      const [streamed, read] = [await http(server.url, 'GET', empty, { headers }), await http(server.url, 'GET', `${empty}?limit=5`, { headers })];
      expect(streamed.status).toBe(200);
      expect(streamed.text).toBe(read.text);
    }
  });

  it('is written as the client reads it, and frees the cursor and the connection when the client goes away', async () => {
    const response = await startReading(`${deployments('large')}?includeObject=Object`, { accept: TABLE });
    expect(response.headers['content-type']).toBe(TABLE);
    await expectHeldUntilClientLeaves(response);
  });
});

describe('a streamed list holds one connection while it is written', () => {
  it('writes the list as the client reads it, and frees the cursor and the connection when the client goes away', async () => {
    await expectHeldUntilClientLeaves(await startReading(deployments('large')));
  });

  it('ends a response whose connection to the database is lost, and goes on serving', async () => {
    const response = await startReading(deployments('large'));
    const ended = new Promise<string>((resolve) => {
      response.on('end', () => resolve('end'));
      response.on('error', () => resolve('error'));
      response.on('close', () => resolve('close'));
    });
    try {
      const pid = await waitingList();
      expect(pid).toBeDefined();
      await server.sql('SELECT pg_terminate_backend($1)', [pid]);
      response.resume();
      await ended;
    } finally {
      response.destroy();
    }
    // the list cannot be completed: the client sees the response cut short, never a complete list
    expect(response.complete).toBe(false);
    expect(await poolSettled()).toEqual({ total: pool().totalCount, idle: pool().totalCount });
    const after = await http(server.url, 'GET', deployments('streamed'));
    expect(after.status).toBe(200);
    expect(after.json.items).toHaveLength(COPIES + 1);
  });

  it('answers the Status of a list that cannot be read before it starts, keeping no connection', async () => {
    const future = await http(server.url, 'GET', `${deployments('large')}?resourceVersion=999999999&resourceVersionMatch=NotOlderThan`);
    expect(future.status).toBe(504);
    expect(await poolSettled()).toEqual({ total: pool().totalCount, idle: pool().totalCount });
    expect(await openListTransactions()).toBe(0);
  });
});

describe('the initial events of a watch-list are streamed', () => {
  const WATCHED = LARGE;
  const watched = deployments('watched');
  const watchList = `${watched}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`;
  const isEnd = (event: WatchEvent) => event.type === 'BOOKMARK' && event.object.metadata.annotations?.['k8s.io/initial-events-end'] === 'true';

  beforeAll(async () => {
    expect((await http(server.url, 'POST', watched, { body: deployment('template', 'watched') })).status).toBe(201);
    await copies('watched', WATCHED, 'x'.repeat(LARGE_BYTES));
  });

  it('as the client reads them: the state once, the bookmark at its version, then every change after it once', async () => {
    const response = await startReading(watchList);
    let events: WatchEvent[];
    try {
      // the server waits for the client between two FETCHes of the state
      expect(await waitingList()).toBeDefined();
      await server.sql(`UPDATE objects SET body = jsonb_set(body, '{metadata,labels,changed}', '"yes"') WHERE namespace = 'watched' AND name IN ('copy-00002', 'copy-01450')`);
      await server.sql(`DELETE FROM objects WHERE namespace = 'watched' AND name = 'copy-00300'`);
      expect((await http(server.url, 'POST', watched, { body: deployment('new', 'watched') })).status).toBe(201);
      events = await readEvents(response, (read) => read.length >= WATCHED + 6);
    } finally {
      response.destroy();
    }
    const end = events.findIndex(isEnd);
    expect(end).toBe(WATCHED + 1);
    const snapshot = events[end].object.metadata.resourceVersion;
    // the initial events are the list at the bookmark's version, in its order, each object as a watch event carries it
    const list = await http(server.url, 'GET', `${watched}?resourceVersion=${snapshot}&resourceVersionMatch=Exact`);
    const initial = events.slice(0, end);
    expect(initial.every((event) => event.type === 'ADDED')).toBe(true);
    expect(initial.map((event) => event.object)).toEqual(list.json.items.map((item: object) => ({ kind: 'Deployment', apiVersion: 'extensions/v1beta1', ...item })));
    expect(JSON.stringify(initial[1].object)).toBe(JSON.stringify({ kind: 'Deployment', apiVersion: 'extensions/v1beta1', ...list.json.items[1] }));
    // then the changes made while the state was sent, each once, in order
    const after = events.slice(end + 1);
    expect(after.map((event) => `${event.type} ${event.object.metadata.name}`)).toEqual([
      'MODIFIED copy-00002',
      'MODIFIED copy-01450',
      'DELETED copy-00300',
      'ADDED new',
    ]);
    const versions = after.map((event) => BigInt(event.object.metadata.resourceVersion));
    expect(versions.every((version, i) => version > BigInt(snapshot) && (i === 0 || version > versions[i - 1]))).toBe(true);
  });

  it('frees the cursor and the connection when the client goes away before they are all sent', async () => {
    await expectHeldUntilClientLeaves(await startReading(`${deployments('large')}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`));
    expect(server.app.get(WatchService).openWatches().size).toBe(0);
  });

  it('lets go of the cursor once the state is sent, while the watch goes on', async () => {
    const response = await startReading(`${watched}?watch=true&labelSelector=changed%3Dyes`);
    try {
      const events = await readEvents(response, (read) => read.length >= 2);
      expect(events.map((event) => `${event.type} ${event.object.metadata.name}`)).toEqual(['ADDED copy-00002', 'ADDED copy-01450']);
      expect(await poolSettled()).toEqual({ total: pool().totalCount, idle: pool().totalCount });
      expect(await openListTransactions()).toBe(0);
      expect(server.app.get(WatchService).openWatches().size).toBe(1);
    } finally {
      response.destroy();
    }
  });
});

describe('a list protobuf cannot write', () => {
  it('is a 406 before the response starts, and its source is closed as failed', async () => {
    const closed: unknown[] = [];
    const source: ListSource = {
      envelope: { kind: 'WidgetList', apiVersion: 'example.com/v1', metadata: { resourceVersion: '1' } },
      itemsMember: 'items',
      async *batches() {
        yield ['{"metadata":{"name":"w"}}'];
      },
      close: async (failure) => {
        closed.push(failure);
      },
    };
    const failure = await listStream(source, 'application/vnd.kubernetes.protobuf', false).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StatusError);
    expect((failure as StatusError).code).toBe(406);
    expect(closed).toEqual([failure]);
  });
});
