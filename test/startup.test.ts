import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './support/global-setup';
import { http } from './support/http';
import { kindNamed } from './support/kinds';
import { ServerProcess } from './support/server-process';
import { startServerProcess } from './support/test-server-process';

// The server as users run it, without DATABASE_URL: it runs an embedded PostgreSQL in DATA_DIR, keeps objects across
// restarts and stops both cleanly on SIGTERM. (Bad settings are settings.test.ts's.)

const CLUSTER = kindNamed('Cluster');
const CLUSTER_PATH = `/apis/federation/v1beta1/clusters/${CLUSTER.manifest.metadata.name}`;

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

describe('without DATABASE_URL', () => {
  jest.setTimeout(120_000); // the first server process compiles the server, and initdb takes a while

  let dir: string;
  let settings: { DATA_DIR: string; EMBEDDED_POSTGRES_PORT: string };
  let running: ServerProcess | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pgkube-startup-'));
    chmodSync(dir, 0o755); // run as root, PostgreSQL runs as the postgres user, which must reach its data folder
    settings = { DATA_DIR: join(dir, 'data'), EMBEDDED_POSTGRES_PORT: String(await freePort()) };
  });
  afterAll(async () => {
    await running?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts an embedded PostgreSQL in DATA_DIR, serves, and stops both on SIGTERM with exit code 0', async () => {
    running = await startServerProcess(settings);
    expect(existsSync(join(settings.DATA_DIR, 'PG_VERSION'))).toBe(true);
    expect(await listening(Number(settings.EMBEDDED_POSTGRES_PORT))).toBe(true);
    const created = await http(running.url, 'POST', '/apis/federation/v1beta1/clusters', { body: CLUSTER.manifest });
    expect(created.status).toBe(201);

    expect(await running.stop('SIGTERM')).toBe(0);
    // the database went last: nothing lost its connection while the server was still closing
    const warnings = running.lines.filter((line) => line.level === 'warn' || line.level === 'error');
    expect(warnings).toEqual([]);
    expect(await listening(Number(settings.EMBEDDED_POSTGRES_PORT))).toBe(false);
    expect(existsSync(join(settings.DATA_DIR, 'postmaster.pid'))).toBe(false);
  });

  it('keeps the objects across a restart', async () => {
    running = await startServerProcess(settings);
    const got = await http(running.url, 'GET', CLUSTER_PATH);
    expect(got.status).toBe(200);
    expect(got.json.spec).toEqual(CLUSTER.manifest.spec);
    expect(await running.stop('SIGTERM')).toBe(0);
  });
});
