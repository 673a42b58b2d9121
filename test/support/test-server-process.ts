import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ServerProcess } from './server-process';

const ROOT = join(__dirname, '..', '..');
const BUILD = join(ROOT, '.test-build');
let built = false;

/** The server compiled for child processes into .test-build (incremental: quick when nothing changed). */
export function serverEntry(): string {
  if (!built) {
    const tsc = require.resolve('typescript/bin/tsc');
    const args = ['-p', join(ROOT, 'tsconfig.build.json'), '--outDir', BUILD, '--incremental', '--tsBuildInfoFile', join(BUILD, '.tsbuildinfo')];
    execFileSync(process.execPath, [tsc, ...args], { stdio: 'pipe' });
    built = true;
  }
  return join(BUILD, 'main.js');
}

/** The environment of a test's server process: nothing of the test's but PATH, then the given settings. */
const serverEnv = (env: Record<string, string>) => ({ PATH: process.env.PATH, PORT: '0', SECURE_PORT: '0', DATABASE_POOL_SIZE: '5', ...env });

/** Starts `node main.js` with these settings (DATABASE_URL among them) and waits until it serves. */
export function startServerProcess(env: Record<string, string>, args: string[] = []): Promise<ServerProcess> {
  return ServerProcess.spawn({ entry: serverEntry(), env: serverEnv(env), args }).untilServing();
}

/** Runs `node main.js` to its end (for settings that stop it at start, or --help); returns its exit code and output. */
export function runServerToExit(env: Record<string, string>, args: string[] = []): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [serverEntry(), ...args], { env: serverEnv(env), encoding: 'utf8', timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
