import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyedCipher } from '../src/storage/encryption/providers';
import { http } from './support/http';
import { kubectl, KUBECTLS } from './support/kubectl';
import { createTestDatabase, dropTestDatabase, startTestServer, TestServer } from './support/test-server';
import { runServerToExit } from './support/test-server-process';
import { WatchClient } from './support/watch-client';

// Encryption at rest as kube-apiserver's --encryption-provider-config: the values of Secrets (and ConfigMaps) are
// ciphertext in every table, and plaintext to every client.

const dir = mkdtempSync(join(tmpdir(), 'pgkube-encryption-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRETS = '/api/v1/namespaces/default/secrets';
const CMS = '/api/v1/namespaces/default/configmaps';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const PASSWORD = 'hunter2-is-the-password';
const b64 = (text: string) => Buffer.from(text).toString('base64');

const newKey = (bytes = 32) => randomBytes(bytes).toString('base64');

/** An EncryptionConfiguration file (YAML or JSON) with these providers for secrets and configmaps. */
function configFile(providers: unknown[], format: 'json' | 'yaml' = 'json', resources = ['secrets', 'configmaps']): string {
  const file = join(dir, `config-${randomBytes(4).toString('hex')}.${format}`);
  const config = { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'EncryptionConfiguration', resources: [{ resources, providers }] };
  const text =
    format === 'json'
      ? JSON.stringify(config)
      : // YAML as people write it by hand
        `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [${resources.join(', ')}]\n    providers: ${JSON.stringify(providers)}\n`;
  writeFileSync(file, text);
  return file;
}

const keyed = (provider: string, ...keys: [string, string][]) => ({ [provider]: { keys: keys.map(([name, secret]) => ({ name, secret })) } });

const call = (server: TestServer, method: string, path: string, body?: unknown, headers?: Record<string, string>) => http(server.url, method, path, { body, headers });

/** Every stored text of the secrets and configmaps: current bodies and the change log's states. */
async function storedTexts(server: TestServer): Promise<string> {
  const rows = await server.sql<{ text: string }>(
    `SELECT body::text AS text FROM objects WHERE api_group = '' AND resource IN ('secrets', 'configmaps')
     UNION ALL SELECT concat(object::text, previous_object::text) FROM change_log WHERE api_group = '' AND resource IN ('secrets', 'configmaps')`,
  );
  return rows.map((r) => r.text).join('\n');
}

const secretWithEverything = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, labels: { app: 'db' }, annotations: { [LAST_APPLIED]: JSON.stringify({ stringData: { password: PASSWORD } }) } },
  stringData: { password: PASSWORD },
});

describe.each(['aesgcm', 'aescbc', 'secretbox'])('%s', (provider) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(undefined, { ENCRYPTION_PROVIDER_CONFIG: configFile([keyed(provider, ['key1', newKey()]), { identity: {} }], 'yaml') });
  });
  afterAll(() => server.close());

  it('stores only ciphertext of the values, in objects and in the change log, and plaintext reaches every reader', async () => {
    const watch = await WatchClient.open(server.url, `${SECRETS}?watch=true`);
    const created = await call(server, 'POST', SECRETS, secretWithEverything('db'));
    expect(created.status).toBe(201);
    const updated = await call(server, 'PATCH', `${SECRETS}/db`, { stringData: { user: 'admin' } }, { 'content-type': 'application/merge-patch+json' });
    expect(updated.status).toBe(200);
    const configMap = await call(server, 'POST', CMS, { metadata: { name: 'cfg' }, data: { conf: PASSWORD }, binaryData: { bin: b64(PASSWORD) } });
    expect(configMap.status).toBe(201);

    const stored = await storedTexts(server);
    expect(stored).not.toContain(PASSWORD);
    expect(stored).not.toContain(b64(PASSWORD));
    expect(stored).not.toContain(b64('admin'));
    const [row] = await server.sql<{ body: any }>(`SELECT body FROM objects WHERE resource = 'secrets' AND name = 'db'`);
    expect(row.body.$sealed).toMatch(new RegExp(`^k8s:enc:${provider}:v1:key1:[A-Za-z0-9+/]+=*$`));
    expect(row.body.data).toEqual({ password: '', user: '' });
    expect(row.body.metadata.annotations[LAST_APPLIED]).toBe('');
    expect(row.body.metadata.labels).toEqual({ app: 'db' });
    expect(row.body.type).toBe('Opaque');
    const [cmRow] = await server.sql<{ body: any }>(`SELECT body FROM objects WHERE resource = 'configmaps' AND name = 'cfg'`);
    expect(cmRow.body).toMatchObject({ data: { conf: '' }, binaryData: { bin: '' }, $sealed: expect.stringMatching(`^k8s:enc:${provider}:v1:key1:`) });
    const [view] = await server.sql(`SELECT namespace, name, type, keys FROM kube.secrets WHERE name = 'db'`);
    expect(view).toEqual({ namespace: 'default', name: 'db', type: 'Opaque', keys: ['password', 'user'] });
    const [cmView] = await server.sql(`SELECT keys, binary_keys FROM kube.configmaps WHERE name = 'cfg'`);
    expect(cmView).toEqual({ keys: ['conf'], binary_keys: ['bin'] });

    const plain = { password: b64(PASSWORD), user: b64('admin') };
    const got = await call(server, 'GET', `${SECRETS}/db`);
    expect(got.json.data).toEqual(plain);
    expect(got.json.metadata.annotations[LAST_APPLIED]).toContain(PASSWORD);
    expect(got.json).toEqual(updated.json);
    expect((await call(server, 'GET', `${SECRETS}?labelSelector=app%3Ddb`)).json.items[0].data).toEqual(plain);
    expect((await call(server, 'GET', `/api/v1/secrets?limit=1`)).json.items[0].data).toEqual(plain);
    const past = await call(server, 'GET', `${SECRETS}?resourceVersion=${created.json.metadata.resourceVersion}&resourceVersionMatch=Exact`);
    expect(past.json.items[0].data).toEqual({ password: b64(PASSWORD) });
    expect((await call(server, 'GET', `${SECRETS}/db`, undefined, { accept: 'application/yaml' })).text).toContain(`password: ${b64(PASSWORD)}`);
    const cm = (await call(server, 'GET', `${CMS}/cfg`)).json;
    expect(cm).toMatchObject({ data: { conf: PASSWORD }, binaryData: { bin: b64(PASSWORD) } });

    await watch.count(2);
    expect(watch.events.map((e) => [e.type, e.object.data])).toEqual([
      ['ADDED', { password: b64(PASSWORD) }],
      ['MODIFIED', plain],
    ]);
    watch.close();
    const replayed = await WatchClient.open(server.url, `${SECRETS}?watch=true&resourceVersion=${created.json.metadata.resourceVersion}`);
    await replayed.count(1);
    expect(replayed.events[0].object.data).toEqual(plain);
    replayed.close();
  });
});

describe('without a configuration, or with identity first', () => {
  it('stores values as they are', async () => {
    const configs: Record<string, string>[] = [{}, { ENCRYPTION_PROVIDER_CONFIG: configFile([{ identity: {} }, keyed('aesgcm', ['key1', newKey(16)])]) }];
    for (const env of configs) {
      const server = await startTestServer(undefined, env);
      try {
        expect((await call(server, 'POST', SECRETS, secretWithEverything('db'))).status).toBe(201);
        expect(await storedTexts(server)).toContain(b64(PASSWORD));
        expect(await storedTexts(server)).not.toContain('$sealed');
        // a client's member of that name is no field: dropped, never read as sealed values
        expect((await call(server, 'POST', SECRETS, { metadata: { name: 'sent' }, $sealed: 'k8s:enc:aesgcm:v1:key1:AAAA' })).status).toBe(201);
        expect((await call(server, 'GET', `${SECRETS}/sent`)).json).not.toHaveProperty('$sealed');
        expect(await storedTexts(server)).not.toContain('$sealed');
      } finally {
        await server.close();
      }
    }
  });
});

describe('tampered ciphertext', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(undefined, { ENCRYPTION_PROVIDER_CONFIG: configFile([keyed('aesgcm', ['key1', newKey()])]) });
    expect((await call(server, 'POST', SECRETS, secretWithEverything('db'))).status).toBe(201);
  });
  afterAll(() => server.close());

  it('is an InternalError Status naming the object on every read, and ends a watch with it', async () => {
    const watch = await WatchClient.open(server.url, `${SECRETS}?watch=true`);
    await watch.count(1);
    // flip one character of the ciphertext, as a change by SQL would
    await server.sql(
      `UPDATE objects SET body = jsonb_set(body, '{$sealed}', to_jsonb(overlay(body ->> '$sealed' placing
         CASE WHEN substr(body ->> '$sealed', 40, 1) = 'A' THEN 'B' ELSE 'A' END from 40 for 1)))
       WHERE resource = 'secrets' AND name = 'db'`,
    );
    const message = 'unable to decrypt secrets "db" in namespace "default": k8s:enc:aesgcm:v1:key1 could not decrypt it';
    for (const path of [`${SECRETS}/db`, SECRETS, `${SECRETS}?limit=10`]) {
      const read = await call(server, 'GET', path);
      expect(read.status).toBe(500);
      expect(read.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'InternalError', code: 500 });
      expect(read.json.message).toContain(message);
    }
    await watch.count(2);
    expect(watch.events[1]).toMatchObject({ type: 'ERROR', object: { reason: 'InternalError' } });
    expect(watch.events[1].object.message).toContain(message);
    await watch.end();
    // the server goes on serving the other resources' changes
    expect((await call(server, 'POST', CMS, { metadata: { name: 'after' } })).status).toBe(201);
  });

  it('binds the values to their object: a ciphertext copied into another secret does not open there', async () => {
    expect((await call(server, 'POST', SECRETS, { metadata: { name: 'source' }, stringData: { password: 'x' } })).status).toBe(201);
    expect((await call(server, 'POST', SECRETS, { metadata: { name: 'other' }, stringData: { password: 'y' } })).status).toBe(201);
    await server.sql(
      `UPDATE objects SET body = jsonb_set(body, '{$sealed}', (SELECT body -> '$sealed' FROM objects WHERE resource = 'secrets' AND name = 'source'))
       WHERE resource = 'secrets' AND name = 'other'`,
    );
    const copied = await call(server, 'GET', `${SECRETS}/other`);
    expect(copied.status).toBe(500);
    expect(copied.json).toMatchObject({ kind: 'Status', reason: 'InternalError' });
    expect(copied.json.message).toContain('unable to decrypt secrets "other" in namespace "default"');
    expect((await call(server, 'DELETE', `${SECRETS}/other`)).status).toBe(500);
    await server.sql(`DELETE FROM objects WHERE resource = 'secrets' AND name = 'other'`);
  });
});

describe('values sealed in the first layout (a line of the texts\' lengths, then the JSON texts)', () => {
  const key = newKey();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(undefined, { ENCRYPTION_PROVIDER_CONFIG: configFile([keyed('aesgcm', ['key1', key])]) });
  });
  afterAll(() => server.close());

  it('are read as they are, and written again in the bytes\' layout', async () => {
    expect((await call(server, 'POST', SECRETS, { metadata: { name: 'old' }, data: { password: b64('x') } })).status).toBe(201);
    const texts = { data: JSON.stringify({ password: b64(PASSWORD) }) };
    const plain = `${JSON.stringify({ data: texts.data.length })}\n${texts.data}`;
    const sealed = keyedCipher('aesgcm', 'key1', Buffer.from(key, 'base64')).seal(Buffer.from(plain), '/secrets/default/old').toString('base64');
    await server.sql(`UPDATE objects SET body = jsonb_set(body, '{$sealed}', to_jsonb($1::text)) WHERE resource = 'secrets' AND name = 'old'`, [`k8s:enc:aesgcm:v1:key1:${sealed}`]);
    const read = await call(server, 'GET', `${SECRETS}/old`);
    expect(read.json.data).toEqual({ password: b64(PASSWORD) });
    expect((await call(server, 'GET', SECRETS)).json.items[0].data).toEqual({ password: b64(PASSWORD) });
    const updated = await call(server, 'PATCH', `${SECRETS}/old`, { stringData: { user: 'admin' } }, { 'content-type': 'application/merge-patch+json' });
    expect(updated.json.data).toEqual({ password: b64(PASSWORD), user: b64('admin') });
    const [row] = await server.sql<{ stored: string }>(`SELECT body ->> '$sealed' AS stored FROM objects WHERE resource = 'secrets' AND name = 'old'`);
    expect(row.stored).not.toBe(`k8s:enc:aesgcm:v1:key1:${sealed}`);
    expect((await call(server, 'GET', `${SECRETS}/old`)).json).toEqual(updated.json);
  });
});

describe('key rotation by rewriting', () => {
  let databaseUrl: string;
  const key1 = newKey();
  const key2 = newKey(24);
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
  });
  afterAll(() => dropTestDatabase(databaseUrl));

  const prefixes = async (server: TestServer) =>
    (await server.sql<{ prefix: string }>(`SELECT DISTINCT substring(body ->> '$sealed' from '^k8s:enc:[a-z]+:v1:[^:]+:') AS prefix FROM objects WHERE resource = 'secrets'`)).map(
      (r) => r.prefix,
    );

  it('reads with every key, writes with the first, and `get -o json | replace` re-encrypts everything', async () => {
    const first = await startTestServer(databaseUrl, { ENCRYPTION_PROVIDER_CONFIG: configFile([keyed('aesgcm', ['key1', key1])]) });
    try {
      for (const namespace of ['default', 'kube-system']) {
        for (const name of ['one', 'two']) {
          expect((await call(first, 'POST', `/api/v1/namespaces/${namespace}/secrets`, { metadata: { name }, stringData: { password: PASSWORD } })).status).toBe(201);
        }
      }
      expect(await prefixes(first)).toEqual(['k8s:enc:aesgcm:v1:key1:']);
    } finally {
      await first.close();
    }

    const rotating = await startTestServer(databaseUrl, { ENCRYPTION_PROVIDER_CONFIG: configFile([keyed('aesgcm', ['key2', key2], ['key1', key1])]) });
    try {
      const before = (await call(rotating, 'GET', `${SECRETS}/one`)).json;
      expect(before.data.password).toBe(b64(PASSWORD));
      // an identical replace of an object read with an older key is written again, with the first key
      const rewritten = await call(rotating, 'PUT', `${SECRETS}/one`, before);
      expect(rewritten.status).toBe(200);
      expect(rewritten.json.metadata.resourceVersion).not.toBe(before.metadata.resourceVersion);
      // and once written with the first key, an identical replace writes nothing, as for any object
      const again = await call(rotating, 'PUT', `${SECRETS}/one`, rewritten.json);
      expect(again.json.metadata.resourceVersion).toBe(rewritten.json.metadata.resourceVersion);
      expect((await prefixes(rotating)).sort()).toEqual(['k8s:enc:aesgcm:v1:key1:', 'k8s:enc:aesgcm:v1:key2:']);

      const client = KUBECTLS[0];
      const listed = await kubectl(client, rotating.url, ['get', 'secrets', '-A', '-o', 'json']);
      expect(listed.code).toBe(0);
      const replaced = await kubectl(client, rotating.url, ['replace', '-f', '-'], listed.stdout);
      expect(replaced.stderr).toBe('');
      expect(replaced.stdout.trim().split('\n')).toHaveLength(4);
      expect(await prefixes(rotating)).toEqual(['k8s:enc:aesgcm:v1:key2:']);
    } finally {
      await rotating.close();
    }

    const rotated = await startTestServer(databaseUrl, { ENCRYPTION_PROVIDER_CONFIG: configFile([keyed('aesgcm', ['key2', key2])]) });
    try {
      const all = (await call(rotated, 'GET', '/api/v1/secrets')).json;
      expect(all.items.map((s: any) => s.data.password)).toEqual(Array(4).fill(b64(PASSWORD)));
    } finally {
      await rotated.close();
    }

    const withoutTheKey = await startTestServer(databaseUrl, { ENCRYPTION_PROVIDER_CONFIG: configFile([keyed('aesgcm', ['key1', key1])]) });
    try {
      const refused = await call(withoutTheKey, 'GET', `${SECRETS}/two`);
      expect(refused.status).toBe(500);
      expect(refused.json.message).toContain('no key of the encryption configuration reads the prefix "k8s:enc:aesgcm:v1:key2:"');
    } finally {
      await withoutTheKey.close();
    }
  });
});

describe('objects stored before encryption was turned on', () => {
  it('are read through identity, rewritten sealed on update, and unreadable without identity', async () => {
    const databaseUrl = await createTestDatabase();
    const key = newKey();
    try {
      const plain = await startTestServer(databaseUrl);
      try {
        expect((await call(plain, 'POST', SECRETS, secretWithEverything('db'))).status).toBe(201);
        expect((await call(plain, 'POST', SECRETS, { metadata: { name: 'empty' } })).status).toBe(201);
      } finally {
        await plain.close();
      }
      const turnedOn = await startTestServer(databaseUrl, { ENCRYPTION_PROVIDER_CONFIG: configFile([keyed('aesgcm', ['key1', key]), { identity: {} }]) });
      try {
        const read = (await call(turnedOn, 'GET', `${SECRETS}/db`)).json;
        expect(read.data).toEqual({ password: b64(PASSWORD) });
        const rewritten = await call(turnedOn, 'PUT', `${SECRETS}/db`, read);
        expect(rewritten.json.metadata.resourceVersion).not.toBe(read.metadata.resourceVersion);
        expect((await turnedOn.sql(`SELECT name, body ? '$sealed' AS sealed FROM objects WHERE resource = 'secrets' ORDER BY name`))).toEqual([
          { name: 'db', sealed: true },
          { name: 'empty', sealed: false },
        ]);
      } finally {
        await turnedOn.close();
      }
      const withoutIdentity = await startTestServer(databaseUrl, { ENCRYPTION_PROVIDER_CONFIG: configFile([keyed('aesgcm', ['key1', key])]) });
      try {
        expect((await call(withoutIdentity, 'GET', `${SECRETS}/db`)).json.data).toEqual({ password: b64(PASSWORD) });
        const refused = await call(withoutIdentity, 'GET', `${SECRETS}/empty`);
        expect(refused.status).toBe(500);
        expect(refused.json.message).toContain('unable to decrypt secrets "empty" in namespace "default": it is stored unencrypted');
      } finally {
        await withoutIdentity.close();
      }
    } finally {
      await dropTestDatabase(databaseUrl);
    }
  });
});

describe('a bad configuration', () => {
  it('stops the server at start with exit code 1 and a message naming the file and the field', async () => {
    const databaseUrl = await createTestDatabase();
    try {
      const file = configFile([keyed('aesgcm', ['key1', newKey(20)])]);
      const run = runServerToExit({ DATABASE_URL: databaseUrl, ENCRYPTION_PROVIDER_CONFIG: file });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `--encryption-provider-config ${file}: resources[0].providers[0].aesgcm.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 20, expected one of [16 24 32]`,
      );
    } finally {
      await dropTestDatabase(databaseUrl);
    }
  }, 180_000); // the server is started to its exit, which a loaded machine can take a minute over
});
