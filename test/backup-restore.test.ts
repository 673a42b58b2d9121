import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { http } from './support/http';
import { SystemPostgres, systemPostgres } from './support/system-postgres';
import { startTestServer, TestServer, WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';
import { WatchClient } from './support/watch-client';

/**
 * A backup with pg_dump and a restore into a fresh database, as docs/operations.md describes them. It runs on a
 * PostgreSQL whose version matches the machine's pg_dump, not on the tests' embedded one (see systemPostgres).
 */
const base = '/apis/extensions/v1beta1/namespaces/default/deployments';

let postgres: SystemPostgres;
const suffix = randomBytes(4).toString('hex');
const databaseUrl = (name: string) => Object.assign(new URL(postgres.adminUrl), { pathname: `/${name}` }).toString();
const sourceName = `ops_backup_${suffix}`;
const restoredName = `ops_restore_${suffix}`;
const dir = mkdtempSync(join(tmpdir(), 'pgkube-backup-'));
const dump = join(dir, 'pgkube.dump');

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: postgres.adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const deployment = (name: string, replicas = 1) => ({
  metadata: { name },
  spec: { replicas, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
});

beforeAll(async () => {
  postgres = await systemPostgres();
});

afterAll(async () => {
  for (const name of [sourceName, restoredName]) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  postgres.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('restores objects, history and the resourceVersion sequence, so new versions keep increasing', async () => {
  const source = databaseUrl(sourceName);
  const restored = databaseUrl(restoredName);
  await admin(`CREATE DATABASE ${sourceName}`);
  // the restored history is compared event by event: no deployment controller writes besides
  let before: TestServer | undefined = await startTestServer(source, WITHOUT_DEPLOYMENT_CONTROLLER);
  let after: TestServer | undefined;
  try {
    const first = await http(before.url, 'POST', base, { body: deployment('kept') });
    expect(first.status).toBe(201);
    expect((await http(before.url, 'POST', base, { body: deployment('removed') })).status).toBe(201);
    const patched = await http(before.url, 'PATCH', `${base}/kept`, {
      body: { spec: { replicas: 3 } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patched.status).toBe(200);
    expect((await http(before.url, 'DELETE', `${base}/removed`, { body: { propagationPolicy: 'Background' } })).status).toBe(200);
    const [{ newest }] = await before.sql<{ newest: string }>('SELECT MAX(resource_version)::text AS newest FROM change_log');

    execFileSync('pg_dump', ['--format=custom', `--file=${dump}`, source], { stdio: 'pipe' }); // the server is running
    await before.close();
    before = undefined;

    await admin(`CREATE DATABASE ${restoredName}`);
    execFileSync('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${restored}`, dump], { stdio: 'pipe' });
    after = await startTestServer(restored, WITHOUT_DEPLOYMENT_CONTROLLER);

    expect((await http(after.url, 'GET', '/readyz')).text).toBe('ok');
    const kept = await http(after.url, 'GET', `${base}/kept`);
    expect(kept.json.metadata).toMatchObject({ uid: first.json.metadata.uid, resourceVersion: patched.json.metadata.resourceVersion });
    expect((await http(after.url, 'GET', `${base}/removed`)).status).toBe(404);

    const [{ last_allocated }] = await after.sql<{ last_allocated: string }>('SELECT last_allocated::text FROM kube.change_log_state');
    expect(BigInt(last_allocated)).toBeGreaterThanOrEqual(BigInt(newest));
    const created = await http(after.url, 'POST', base, { body: deployment('new') });
    expect(created.status).toBe(201);
    expect(BigInt(created.json.metadata.resourceVersion)).toBeGreaterThan(BigInt(newest));

    // the history came along: a watch from the first version replays every later change
    const watch = await WatchClient.open(after.url, `${base}?watch=true&resourceVersion=${first.json.metadata.resourceVersion}`);
    await watch.count(4);
    expect(watch.summary()).toEqual(['ADDED removed', 'MODIFIED kept', 'DELETED removed', 'ADDED new']);
    watch.close();
  } finally {
    await before?.close();
    await after?.close();
  }
});
