import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './support/free-port';
import { http } from './support/http';
import { KINDS } from './support/kinds';

// The built server as users run it (`node dist/main.js`, which `npm test` builds first): without DATABASE_URL it
// runs an embedded PostgreSQL in DATA_DIR, keeps objects across restarts and stops cleanly on SIGTERM.

const MAIN = join(__dirname, '..', 'dist', 'main.js');
const CLUSTER = KINDS.find((k) => k.kind === 'Cluster')!;

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

const running = new Set<Running>();

function run(settings: Record<string, string>): Running {
  const env: NodeJS.ProcessEnv = { ...process.env, ...settings };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const server = { child, output: () => output, exited };
  running.add(server);
  void exited.then(() => running.delete(server));
  return server;
}

async function waitUntilServing(server: Running, url: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`the server exited early:\n${server.output()}`);
    const health = await http(url, 'GET', '/healthz').catch(() => undefined);
    if (health?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server did not serve within 90 s:\n${server.output()}`);
}

/** True when something accepts TCP connections on the port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

afterAll(async () => {
  for (const server of running) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});

describe('without DATABASE_URL', () => {
  let dir: string;
  let settings: Record<string, string>;
  let url: string;

  beforeAll(async () => {
    expect(existsSync(MAIN)).toBe(true);
    dir = mkdtempSync(join(tmpdir(), 'pgkube-startup-'));
    chmodSync(dir, 0o755); // run as root, PostgreSQL runs as the postgres user, which must reach its data folder
    const [port, postgresPort] = [await freePort(), await freePort()];
    settings = {
      PORT: String(port),
      BIND_ADDRESS: '127.0.0.1',
      DATA_DIR: join(dir, 'data'),
      EMBEDDED_POSTGRES_PORT: String(postgresPort),
      LOG_LEVEL: 'log',
    };
    url = `http://127.0.0.1:${port}`;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('starts an embedded PostgreSQL in DATA_DIR, serves, and stops both on SIGTERM with exit code 0', async () => {
    const server = run(settings);
    await waitUntilServing(server, url);
    expect(existsSync(join(settings.DATA_DIR, 'PG_VERSION'))).toBe(true);
    expect(await listening(Number(settings.EMBEDDED_POSTGRES_PORT))).toBe(true);
    const created = await http(url, 'POST', '/apis/federation/v1beta1/clusters', { body: CLUSTER.manifest });
    expect(created.status).toBe(201);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(await listening(Number(settings.EMBEDDED_POSTGRES_PORT))).toBe(false);
    expect(existsSync(join(settings.DATA_DIR, 'postmaster.pid'))).toBe(false);
  }, 120_000);

  it('keeps the objects across a restart', async () => {
    const server = run(settings);
    await waitUntilServing(server, url);
    const got = await http(url, 'GET', `/apis/federation/v1beta1/clusters/${CLUSTER.manifest.metadata.name}`);
    expect(got.status).toBe(200);
    expect(got.json.spec).toEqual(CLUSTER.manifest.spec);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 120_000);
});

describe('an invalid setting', () => {
  it.each([
    ['PORT', 'abc'],
    ['LOG_LEVEL', 'loud'],
    ['EMBEDDED_POSTGRES_PORT', '70000'],
  ])('%s=%s stops the server at start with a message naming it', async (name, value) => {
    const server = run({ PORT: String(await freePort()), [name]: value });
    expect(await server.exited).not.toBe(0);
    expect(server.output()).toMatch(new RegExp(`invalid settings:\n  ${name}="?${value}"?: `));
  });
});
