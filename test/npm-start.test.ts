import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './support/global-setup';
import { until } from './support/until';

/**
 * `npm start` as a process manager or a script uses it: it builds only what changed, a bad setting makes it exit
 * non-zero, and a SIGTERM sent to the npm process stops the server and its embedded PostgreSQL.
 */
jest.setTimeout(240_000);

const ROOT = join(__dirname, '..');

interface Started {
  npm: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function npmStart(env: Record<string, string>): Started {
  const npm = spawn('npm', ['start'], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  npm.stdout?.on('data', (chunk) => (output += chunk));
  npm.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  return { npm, output: () => output, exited };
}

/** Whether something accepts TCP connections on this loopback port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgkube-npm-start-'));
  chmodSync(dir, 0o755); // the embedded PostgreSQL runs as another user and must reach its data folder
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('exits non-zero on a bad setting, naming it', async () => {
  const started = npmStart({ PORT: 'abc' });
  expect(await started.exited).not.toBe(0);
  expect(started.output()).toContain('PORT (--port, --insecure-port) = "abc": PORT must be an integer number');
});

it('serves without building again, and stops with its PostgreSQL when npm is sent SIGTERM', async () => {
  const [port, databasePort] = [await freePort(), await freePort()];
  const started = npmStart({ PORT: String(port), SECURE_PORT: '0', EMBEDDED_POSTGRES_PORT: String(databasePort), DATA_DIR: join(dir, 'data') });
  try {
    await until(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.status === 200, 120_000, 250);
  } catch (error) {
    started.npm.kill('SIGKILL');
    throw new Error(`npm start did not serve: ${String(error)}\n${started.output()}`);
  }
  // the first test's start built whatever was out of date
  expect(started.output()).not.toContain('compiling the server');
  expect(await listening(databasePort)).toBe(true);
  started.npm.kill('SIGTERM');
  expect(await started.exited).toBe(0);
  expect(started.output()).toContain('"message":"stopped"');
  expect(await listening(port)).toBe(false);
  expect(await listening(databasePort)).toBe(false);
});
