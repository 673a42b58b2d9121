import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { certsJob } from './support/compose-certs';
import { freePort } from './support/global-setup';
import { ClientTls, http } from './support/http';
import { sample, scrape } from './support/metrics';
import { kubectl, KUBECTLS } from './support/kubectl';
import { OPENSSL } from './support/pki';
import { ServerProcess } from './support/server-process';
import { createNamespaces } from './support/namespaces';
import { startServerProcess } from './support/test-server-process';
import { WITHOUT_DEPLOYMENT_CONTROLLER } from './support/test-server';
import { createTestDatabase, dropTestDatabase } from './support/test-server';
import { WatchClient } from './support/watch-client';

/**
 * docker-compose.yml's topology with processes: one PostgreSQL, two server processes over it, and HAProxy with the
 * repository's configuration in front of them when HAProxy (and openssl) is installed (.ci/run installs it): TLS
 * passed through to the instances' secure ports, which authenticate the client's certificate themselves, with the
 * certificates and the administrator's kubeconfig of the compose file's certs job (deploy/make-certs.sh). Writes and watches
 * go through each instance and through the load balancer; then one instance is stopped with SIGTERM while a write is
 * in flight, and the other keeps serving.
 */
const base = '/apis/extensions/v1beta1/namespaces/topology/deployments';
const HAPROXY = spawnSync('haproxy', ['-v']).status === 0 && OPENSSL;

const deployment = (name: string) => ({
  metadata: { name, labels: { app: name } },
  spec: { template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
});

function named(url: string, applicationName: string): string {
  const u = new URL(url);
  u.searchParams.set('application_name', applicationName);
  return u.toString();
}

let databaseUrl: string;
let a: ServerProcess;
let b: ServerProcess;
let haproxy: ChildProcess | undefined;
let lb: string | undefined;
let pki: string | undefined;
/** the administrator's kubeconfig the certs job writes, for the load balancer */
let kubeconfig: string | undefined;
/** the load balancer's clients trust the deployment's CA and present the administrator's client certificate */
let lbTls: ClientTls | undefined;

/** The compose file's certs job, its kubeconfig for the load balancer; returns the instances' TLS settings. */
async function makeCertificates(): Promise<Record<string, string>> {
  pki = mkdtempSync(join(tmpdir(), 'pgkube-topology-'));
  lb = `https://127.0.0.1:${await freePort()}`;
  const job = certsJob(pki, lb);
  job.run();
  kubeconfig = job.kubeconfig;
  lbTls = job.adminTls();
  return job.instanceTls;
}

/** HAProxy with deploy/haproxy.cfg on `address` (https://127.0.0.1:port) in front of the two instances. */
async function startHaproxy(address: string): Promise<void> {
  const env = { PATH: process.env.PATH, PGKUBE_LISTEN: new URL(address).host, PGKUBE_1: new URL(a.secureUrl).host, PGKUBE_2: new URL(b.secureUrl).host };
  haproxy = spawn('haproxy', ['-db', '-f', join(__dirname, '..', 'deploy', 'haproxy.cfg')], { env, stdio: 'ignore' });
  // ready once requests through it reach both instances (each has passed HAProxy's health checks)
  const probe = '/apis/extensions/v1beta1/namespaces/lb-probe/ingresses';
  const probed = async (server: ServerProcess) => sample(await scrape(server.url), 'apiserver_request_total', { verb: 'LIST', resource: 'ingresses' }) ?? 0;
  const deadline = Date.now() + 20_000;
  while ((await probed(a)) === 0 || (await probed(b)) === 0) {
    if (Date.now() > deadline) throw new Error('HAProxy did not pass requests to both instances');
    await http(address, 'GET', probe, { tls: lbTls }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  const tls = HAPROXY ? await makeCertificates() : {};
  // started together: both apply migrations, under the migration lock
  [a, b] = await Promise.all([
    startServerProcess({ DATABASE_URL: named(databaseUrl, 'pgkube-a'), SHUTDOWN_DELAY_SECONDS: '1', ...tls, ...WITHOUT_DEPLOYMENT_CONTROLLER }),
    startServerProcess({ DATABASE_URL: named(databaseUrl, 'pgkube-b'), ...tls, ...WITHOUT_DEPLOYMENT_CONTROLLER }),
  ]);
  await createNamespaces(a.url, ['topology']);
  if (lb) await startHaproxy(lb);
}, 120_000);

afterAll(async () => {
  haproxy?.kill('SIGTERM');
  await Promise.all([a?.stop(), b?.stop()]);
  await dropTestDatabase(databaseUrl);
  if (pki) rmSync(pki, { recursive: true, force: true });
});

describe('two server processes over one PostgreSQL', () => {
  it('apply the migrations once', async () => {
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    const { rows } = await db.query('SELECT migration_name FROM _prisma_migrations ORDER BY migration_name');
    await db.end();
    expect(rows.map((r) => r.migration_name)).toEqual(expect.arrayContaining(['0001_init', '0005_operator_views']));
    expect(new Set(rows.map((r) => r.migration_name)).size).toBe(rows.length);
  });

  it('serve writes through either, and every watcher on either sees every change in order', async () => {
    const targets = [a.url, b.url, ...(lb ? [lb] : [])];
    const watchers = await Promise.all(targets.map((url) => WatchClient.open(url, `${base}?watch=true`, {}, url === lb ? lbTls : undefined)));
    expect((await http(a.url, 'POST', base, { body: deployment('one') })).status).toBe(201);
    expect((await http(b.url, 'POST', base, { body: deployment('two') })).status).toBe(201);
    const one = (await http(b.url, 'GET', `${base}/one`)).json;
    one.metadata.labels.changed = 'through-b';
    expect((await http(b.url, 'PUT', `${base}/one`, { body: one })).status).toBe(200);
    if (lb) expect((await http(lb, 'POST', base, { body: deployment('three'), tls: lbTls })).status).toBe(201);
    expect((await http(lb ?? a.url, 'DELETE', `${base}/two`, { body: { propagationPolicy: 'Background' }, tls: lbTls })).status).toBe(200);

    const expected = ['ADDED one', 'ADDED two', 'MODIFIED one', ...(lb ? ['ADDED three'] : []), 'DELETED two'];
    for (const watcher of watchers) {
      await watcher.count(expected.length);
      expect(watcher.summary()).toEqual(expected);
      watcher.close();
    }
    const versions = watchers.map((w) => w.events.map((e) => e.object.metadata.resourceVersion).join(','));
    expect(new Set(versions).size).toBe(1);
  });

  (HAPROXY ? it : it.skip)('are both used by the load balancer, which passes TLS through to them, and streams a watch as events happen', async () => {
    const review = await http(lb as string, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { body: {}, tls: lbTls });
    expect(review.json.status.userInfo).toEqual({ username: 'pgkube-admin', groups: ['system:masters', 'system:authenticated'] });

    const before = await Promise.all([a.url, b.url].map(async (url) => sample(await scrape(url), 'apiserver_request_total', { verb: 'LIST', resource: 'deployments', code: '200' }) ?? 0));
    for (let i = 0; i < 4; i++) expect((await http(lb as string, 'GET', base, { tls: lbTls })).status).toBe(200);
    const after = await Promise.all([a.url, b.url].map(async (url) => sample(await scrape(url), 'apiserver_request_total', { verb: 'LIST', resource: 'deployments', code: '200' }) ?? 0));
    expect(after[0] - before[0]).toBeGreaterThan(0);
    expect(after[1] - before[1]).toBeGreaterThan(0);

    const watcher = await WatchClient.open(lb as string, `${base}?watch=true&resourceVersion=0`, {}, lbTls);
    await watcher.until((events) => events.some((e) => e.object.metadata.name === 'three'));
    const started = Date.now();
    await http(a.url, 'POST', base, { body: deployment('streamed') });
    await watcher.until((events) => events.some((e) => e.object.metadata.name === 'streamed'), 3000);
    expect(Date.now() - started).toBeLessThan(3000); // not held back in a buffer
    watcher.close();
  });

  (HAPROXY ? it : it.skip)("let kubectl in through the load balancer with the certs job's kubeconfig, as written", async () => {
    for (const client of KUBECTLS) {
      const result = await kubectl(client, { kubeconfig: kubeconfig as string }, ['get', 'deployments', '--namespace=topology']);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^three\s/m);
    }
  });

  it('log one JSON line per request, with verb, resource, namespace, name, user agent, code and latency', async () => {
    await http(b.url, 'GET', `${base}/one`, { headers: { 'user-agent': 'topology-test/1.0' } });
    const line = await b.waitForLine((l) => l.message === 'request' && l.userAgent === 'topology-test/1.0');
    expect(line).toMatchObject({ level: 'log', context: 'Request', verb: 'GET', resource: 'deployments', namespace: 'topology', name: 'one', code: 200 });
    expect(typeof line.latencyMs).toBe('number');
    expect(typeof line.time).toBe('string');
    expect(a.lines.some((l) => l.context === 'Database' && String(l.message).startsWith('migrations:'))).toBe(true);
  });
});

describe('SIGTERM', () => {
  it('fails readiness, ends watches cleanly, stops accepting, finishes the write in flight, releases the database; the other instance serves on', async () => {
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const watcher = await WatchClient.open(a.url, `${base}?watch=true`);
      const otherWatcher = await WatchClient.open(b.url, `${base}?watch=true`);
      await db.query('SELECT pg_advisory_lock(7365, 1)'); // holds every write at its resourceVersion
      const inFlight = http(a.url, 'POST', base, { body: deployment('in-flight') });
      for (let waiting = 0; waiting === 0; ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        ({ rows: [{ waiting }] } = await db.query("SELECT COUNT(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"));
      }

      a.child.kill('SIGTERM');
      await a.waitForLine((l) => l.message === 'shutting down');
      // SHUTDOWN_DELAY_SECONDS=1: not ready, but still serving
      const ready = await http(a.url, 'GET', '/readyz?verbose');
      expect(ready.status).toBe(500);
      expect(ready.text).toContain('[-]shutdown failed: reason withheld');
      expect((await http(a.url, 'GET', '/version')).status).toBe(200);

      await watcher.end(10_000); // ended by the server, cleanly
      let refused = false;
      for (let i = 0; i < 50 && !refused; i++) {
        refused = await fetch(`${a.url}/version`).then(() => false, () => true);
        if (!refused) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(refused).toBe(true);

      await db.query('SELECT pg_advisory_unlock(7365, 1)');
      expect((await inFlight).status).toBe(201);
      expect(await a.exited).toBe(0);
      expect(a.lines.some((l) => l.message === 'stopped')).toBe(true);
      const { rows } = await db.query("SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE application_name = 'pgkube-a'");
      expect(rows[0].n).toBe(0);

      expect((await http(b.url, 'GET', `${base}/in-flight`)).status).toBe(200);
      await otherWatcher.until((events) => events.some((e) => e.object.metadata.name === 'in-flight'));
      expect((await http(b.url, 'POST', base, { body: deployment('after') })).status).toBe(201);
      if (lb) {
        // HAProxy sends everything to the instance left (a refused connection is retried on the other)
        for (let i = 0; i < 4; i++) expect((await http(lb, 'GET', `${base}/after`, { tls: lbTls })).status).toBe(200);
      }
      otherWatcher.close();
    } finally {
      await db.end();
    }
  });
});
