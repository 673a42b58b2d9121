import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './support/global-setup';
import { http } from './support/http';
import { createScratchDatabase, dropScratchDatabase } from './support/scratch-database';
import { LogLine, ServerProcess } from './support/server-process';
import { runServerToExit, serverEntry } from './support/test-server-process';
import { until } from './support/until';
import { WatchClient } from './support/watch-client';

/**
 * `--workers N`: a primary that starts the embedded PostgreSQL and N worker processes sharing both ports; each
 * request's log line names the worker (pid) that served it.
 */
jest.setTimeout(240_000);

const ADMIN_URL = process.env.PGKUBE_TEST_ADMIN_URL as string;

/** Whether something accepts TCP connections on this loopback port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** A GET on a connection of its own (the cluster hands out connections, not requests), marked by its user agent. */
const getAlone = (base: string, path: string, userAgent: string) =>
  new Promise<number>((resolve, reject) => {
    request(`${base}${path}`, { agent: false, headers: { 'user-agent': userAgent } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode as number));
    })
      .on('error', reject)
      .end();
  });

const requestLines = (server: ServerProcess, userAgent: string) =>
  server.lines.filter((line) => line.message === 'request' && line.userAgent === userAgent);
const pidsOf = (lines: LogLine[]) => new Set(lines.map((line) => line.pid));

function spawnServer(env: Record<string, string>, args: string[]): ServerProcess {
  return ServerProcess.spawn({ entry: serverEntry(), env: { PATH: process.env.PATH, PORT: '0', SECURE_PORT: '0', DATABASE_POOL_SIZE: '5', ...env }, args });
}

describe('--workers 2 with the embedded PostgreSQL', () => {
  let dir: string;
  let databasePort: number;
  let primary: ServerProcess;
  let workers: number[];
  let ca: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pgkube-workers-'));
    chmodSync(dir, 0o755); // the embedded PostgreSQL runs as another user and must reach its data folder
    databasePort = await freePort();
    primary = spawnServer(
      { DATA_DIR: join(dir, 'data'), EMBEDDED_POSTGRES_PORT: String(databasePort), CERT_DIR: join(dir, 'certs'), LOG_LEVEL: 'debug' },
      ['--workers', '2'],
    );
    const serving = await primary.untilServing().then(() => primary.waitForLine((line) => line.message === 'serving'), (error) => {
      primary.child.kill('SIGKILL');
      throw error;
    });
    workers = serving.workers as number[];
    ca = readFileSync(join(dir, 'certs', 'apiserver.crt'), 'utf8');
  });

  afterAll(async () => {
    await primary?.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('forks two workers after applying the migrations once', () => {
    expect(workers).toHaveLength(2);
    expect(new Set(workers).size).toBe(2);
    expect(workers).not.toContain(primary.pid);
    const migrations = primary.lines.filter((line) => String(line.message).startsWith('migrations:'));
    expect(migrations.filter((line) => line.pid === undefined && String(line.message).startsWith('migrations: applied'))).toHaveLength(1);
    expect(migrations.filter((line) => workers.includes(line.pid as number)).map((line) => line.message)).toEqual([
      expect.stringMatching(/^migrations: up to date/),
      expect.stringMatching(/^migrations: up to date/),
    ]);
  });

  it('serves both ports, connections handed to both workers', async () => {
    for (let i = 0; i < 8; i++) {
      expect(await getAlone(primary.url, '/api/v1/namespaces/default', 'insecure-probe')).toBe(200);
      expect((await http(primary.secureUrl, 'GET', '/version', { headers: { 'user-agent': 'secure-probe' }, tls: { ca } })).status).toBe(200);
    }
    await until(() => requestLines(primary, 'insecure-probe').length === 8 && requestLines(primary, 'secure-probe').length === 8);
    expect(pidsOf(requestLines(primary, 'insecure-probe'))).toEqual(new Set(workers));
    expect(pidsOf(requestLines(primary, 'secure-probe'))).toEqual(new Set(workers));
  });

  it("shows a watch held by one worker the writes made through the other", async () => {
    const watch = await WatchClient.open(primary.url, '/api/v1/namespaces/default/configmaps?watch=1', { 'user-agent': 'watcher' });
    const names = ['one', 'two', 'three', 'four'].map((n) => `workers-${n}`);
    for (const name of names) {
      const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(`${primary.url}/api/v1/namespaces/default/configmaps`, {
          method: 'POST',
          agent: false,
          headers: { 'user-agent': 'writer', 'content-type': 'application/json' },
        });
        req.on('response', (response) => (response.resume(), resolve(response.statusCode as number))).on('error', reject).end(body);
      });
      expect(status).toBe(201);
    }
    await watch.until((events) => names.every((name) => events.some((e) => e.type === 'ADDED' && e.object.metadata.name === name)));
    watch.close();
    await until(() => requestLines(primary, 'watcher').length === 1 && requestLines(primary, 'writer').length === 4);
    const watcher = requestLines(primary, 'watcher')[0].pid;
    expect(pidsOf(requestLines(primary, 'writer'))).toEqual(new Set(workers));
    expect(workers).toContain(watcher);
  });

  it('starts another worker when one is killed, and keeps answering meanwhile', async () => {
    const [killed, survivor] = workers;
    process.kill(killed, 'SIGKILL');
    const exited = await primary.waitForLine((line) => line.message === 'worker exited; starting another' && line.pid === killed);
    expect(exited).toMatchObject({ level: 'warn', signal: 'SIGKILL', restartInSeconds: 1 });
    for (let i = 0; i < 4; i++) expect(await getAlone(primary.url, '/healthz', 'during-restart')).toBe(200);
    const restarted = await primary.waitForLine((line) => line.message === 'worker serving' && line.pid !== killed && line.pid !== survivor);
    workers = [survivor, restarted.pid as number];
    for (let i = 0; i < 8; i++) expect(await getAlone(primary.url, '/api/v1/namespaces/default', 'after-restart')).toBe(200);
    await until(() => requestLines(primary, 'after-restart').length === 8);
    expect(pidsOf(requestLines(primary, 'after-restart'))).toEqual(new Set(workers));
  });

  it('stops every worker gracefully and then the embedded PostgreSQL on SIGTERM', async () => {
    const port = Number(new URL(primary.url).port);
    expect(await listening(databasePort)).toBe(true);
    expect(await primary.stop('SIGTERM')).toBe(0);
    for (const pid of workers) {
      expect(primary.lines.find((line) => line.pid === pid && line.message === 'shutting down')).toMatchObject({ signal: 'SIGTERM' });
      expect(primary.lines.find((line) => line.pid === pid && line.message === 'stopped')).toBeDefined();
      expect(primary.lines.find((line) => line.message === 'worker stopped' && line.pid === pid)).toMatchObject({ code: 0 });
    }
    expect(primary.lines[primary.lines.length - 1]).toMatchObject({ message: 'stopped', context: 'primary' });
    expect(await listening(port)).toBe(false);
    expect(await listening(databasePort)).toBe(false);
  });
});

describe('--workers auto over DATABASE_URL', () => {
  let databaseUrl: string;
  beforeAll(async () => {
    databaseUrl = await createScratchDatabase(ADMIN_URL, 'workers');
  });
  afterAll(() => dropScratchDatabase(ADMIN_URL, databaseUrl));

  it('forks one worker per core', async () => {
    const primary = spawnServer({ DATABASE_URL: databaseUrl }, ['--workers=auto']);
    try {
      const serving = await primary.untilServing().then(() => primary.waitForLine((line) => line.message === 'serving'));
      expect(serving.workers).toHaveLength(availableParallelism());
      expect(await getAlone(primary.url, '/healthz', 'auto')).toBe(200);
    } finally {
      expect(await primary.stop('SIGTERM')).toBe(0);
    }
  });
});

describe('bad --workers values', () => {
  it.each(['0', '-1', '1.5', 'many', '10000'])('stops at start on %s, naming the setting', (value) => {
    const { code, stderr } = runServerToExit({ DATABASE_URL: 'postgresql://127.0.0.1:1/none' }, [`--workers=${value}`]);
    expect(code).toBe(1);
    expect(stderr).toContain(`invalid settings:\n  WORKERS (--workers) = "${value}": WORKERS must be a number from 1 to 9999, or auto`);
  });
});
