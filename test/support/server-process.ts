import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

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

/** A log line of the server: one JSON object. */
export type LogLine = Record<string, unknown> & { message?: unknown };

/** The environment of a server process: nothing of the test's but PATH, then the given settings. */
const serverEnv = (env: Record<string, string>) => ({ PATH: process.env.PATH, PORT: '0', SECURE_PORT: '0', DATABASE_POOL_SIZE: '5', ...env });

export interface ServerProcess {
  url: string;
  /** the secure port, https://127.0.0.1:port */
  secureUrl: string;
  child: ChildProcess;
  /** the JSON lines it has written so far, stdout and stderr */
  lines: LogLine[];
  /** resolves with the exit code once the process has ended */
  exited: Promise<number | null>;
  /** waits for a log line that matches */
  waitForLine(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** sends the signal (SIGTERM by default) and waits for the exit code */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `node main.js` with these settings (DATABASE_URL among them) and waits until it serves. */
export async function startServerProcess(env: Record<string, string>, args: string[] = []): Promise<ServerProcess> {
  const child = spawn(process.execPath, [serverEntry(), ...args], { env: serverEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: LogLine[] = [];
  const text: string[] = [];
  const listeners = new Set<() => void>();
  for (const stream of [child.stdout, child.stderr]) {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      pending += chunk;
      const complete = pending.split('\n');
      pending = complete.pop() as string;
      for (const line of complete) {
        text.push(line);
        try {
          lines.push(JSON.parse(line));
        } catch {
          // not a log line (e.g. a start-up error); kept in `text` for the failure message
        }
      }
      for (const listener of listeners) listener();
    });
  }
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => {
    ended = true;
    for (const listener of listeners) listener();
  });

  const waitForLine = (match: (line: LogLine) => boolean, timeoutMs = 30_000) =>
    new Promise<LogLine>((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`no such log line within ${timeoutMs} ms:\n${text.join('\n')}`)), timeoutMs);
      const check = () => {
        const found = lines.find(match);
        if (found) finish(undefined, found);
        else if (ended) finish(new Error(`the server exited:\n${text.join('\n')}`));
      };
      const finish = (error?: Error, line?: LogLine) => {
        clearTimeout(timer);
        listeners.delete(check);
        if (error) reject(error);
        else resolve(line as LogLine);
      };
      listeners.add(check);
      check();
    });

  const serving = await waitForLine((line) => line.message === 'serving');
  return {
    url: `http://127.0.0.1:${serving.port}`,
    secureUrl: `https://127.0.0.1:${serving.securePort}`,
    child,
    lines,
    exited,
    waitForLine,
    stop: async (signal = 'SIGTERM') => {
      if (!ended) child.kill(signal);
      return exited;
    },
  };
}

/** Runs `node main.js` to its end (for settings that stop it at start, or --help); returns its exit code and output. */
export function runServerToExit(env: Record<string, string>, args: string[] = []): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [serverEntry(), ...args], { env: serverEnv(env), encoding: 'utf8', timeout: 30_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
