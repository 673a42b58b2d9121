import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningDatabase, startEmbeddedPostgres } from '../src/storage/database/embedded-postgres';
import { ShutdownSignal } from '../src/health/shutdown-signal';
import { freePort } from './support/global-setup';
import { http } from './support/http';
import { startTestServer, TestServer } from './support/test-server';

const READY_CHECKS = ['ping', 'database', 'database-readiness', 'migrations', 'change-feed', 'shutdown'];

/** Polls `path` until it answers `status` (or fails after `timeoutMs`). */
async function until(server: TestServer, path: string, status: number, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await http(server.url, 'GET', path);
    if (response.status === status) return response;
    if (Date.now() > deadline) throw new Error(`${path} still answers ${response.status}: ${response.text}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('/livez, /readyz and /healthz', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers a plain "ok" as kube-apiserver does, in text/plain', async () => {
    for (const path of ['/livez', '/readyz', '/healthz']) {
      const response = await http(server.url, 'GET', path);
      expect(response.status).toBe(200);
      expect(response.text).toBe('ok');
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('answers HEAD as GET, without a body', async () => {
    for (const path of ['/livez', '/readyz', '/healthz', '/readyz/ping']) {
      const response = await http(server.url, 'HEAD', path);
      expect([path, response.status, response.text]).toEqual([path, 200, '']);
    }
  });

  it('lists each check with ?verbose', async () => {
    const ready = await http(server.url, 'GET', '/readyz?verbose');
    expect(ready.text).toBe(`${READY_CHECKS.map((c) => `[+]${c} ok\n`).join('')}readyz check passed\n`);
    expect((await http(server.url, 'GET', '/livez?verbose')).text).toBe('[+]ping ok\nlivez check passed\n');
    expect((await http(server.url, 'GET', '/healthz?verbose')).text).toBe(
      '[+]ping ok\n[+]database ok\n[+]migrations ok\n[+]change-feed ok\nhealthz check passed\n',
    );
  });

  it('runs one check by its path, excludes checks by name, and warns of unknown ones', async () => {
    expect((await http(server.url, 'GET', '/readyz/database')).text).toBe('ok');
    expect((await http(server.url, 'GET', '/readyz/nothing')).status).toBe(404);
    const excluded = await http(server.url, 'GET', '/readyz?verbose&exclude=database&exclude=nothing');
    expect(excluded.text).toContain('[+]database excluded: ok\n');
    expect(excluded.text).toContain('warn: some health checks cannot be excluded: no matches for "nothing"\n');
  });

  it('is not ready once shutdown has begun, while /livez and /healthz still pass', async () => {
    server.app.get(ShutdownSignal).request();
    const ready = await http(server.url, 'GET', '/readyz');
    expect(ready.status).toBe(500);
    expect(ready.text).toContain('[-]shutdown failed: reason withheld\n');
    expect(ready.text).toMatch(/readyz check failed\n$/);
    expect((await http(server.url, 'GET', '/readyz/shutdown')).text).toBe('internal server error: the server is shutting down\n');
    expect((await http(server.url, 'GET', '/livez')).status).toBe(200);
    expect((await http(server.url, 'GET', '/healthz')).status).toBe(200);
  });
});

describe('readiness follows PostgreSQL', () => {
  let dir: string;
  let port: number;
  let database: RunningDatabase;
  let server: TestServer;
  const start = () => startEmbeddedPostgres(join(dir, 'data'), port, () => undefined);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pgkube-health-'));
    chmodSync(dir, 0o755); // the postgres user must be able to reach its data folder
    port = await freePort();
    database = await start();
    server = await startTestServer(database.url);
  });
  afterAll(async () => {
    await server?.close();
    await database?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('goes false when PostgreSQL stops, true again when it is back, and the server serves again', async () => {
    expect((await http(server.url, 'GET', '/readyz')).status).toBe(200);
    await database.stop();

    const down = await until(server, '/readyz?verbose', 500);
    expect(down.text).toContain('[-]database failed: reason withheld\n');
    expect(down.text).toContain('[+]ping ok\n');
    expect(down.text).toMatch(/readyz check failed\n$/);
    expect((await http(server.url, 'GET', '/readyz/database')).text).toMatch(/^internal server error: .+\n$/);
    expect((await http(server.url, 'GET', '/healthz')).status).toBe(500);
    expect((await http(server.url, 'GET', '/livez')).status).toBe(200); // restarting the process would not help

    database = await start();
    const up = await until(server, '/readyz?verbose', 200);
    expect(up.text).toBe(`${READY_CHECKS.map((c) => `[+]${c} ok\n`).join('')}readyz check passed\n`);
    const created = await http(server.url, 'POST', '/apis/extensions/v1beta1/namespaces/default/ingresses', {
      body: { metadata: { name: 'back' }, spec: { backend: { serviceName: 'web', servicePort: 80 } } },
    });
    expect(created.status).toBe(201);
  });
});
