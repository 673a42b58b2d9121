import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpuMsOf, threadsCpuMsOf } from './process-cpu';

/** A log line of the server: one JSON object. */
export type LogLine = Record<string, unknown> & { message?: unknown };

/** How to start a server process. */
export interface ServerLaunch {
  /** the compiled server, e.g. dist/main.js */
  entry: string;
  /** the whole environment of the process: nothing else is inherited */
  env: NodeJS.ProcessEnv;
  /** flags after the entry */
  args?: string[];
  /** node flags before the entry, e.g. --cpu-prof */
  nodeArgs?: string[];
  cwd?: string;
}

const KILL_AFTER_MS = 30_000;

const live = new Set<ChildProcess>();
process.once('exit', () => live.forEach((child) => child.kill('SIGKILL')));

/**
 * One server process (`node main.js`) of the tests or the benchmarks: its log lines kept as they come (JSON objects,
 * and the raw text for failure messages), its URL once it serves, its end.
 */
export class ServerProcess {
  readonly lines: LogLine[] = [];
  /** resolves with the exit code once the process has ended */
  readonly exited: Promise<number | null>;
  url = '';
  /** the secure port, https://127.0.0.1:port, when read from the `serving` line */
  secureUrl = '';
  private readonly text: string[] = [];
  private readonly listeners = new Set<() => void>();
  private ended = false;

  private constructor(readonly child: ChildProcess) {
    for (const stream of [child.stdout, child.stderr]) {
      let pending = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        const complete = (pending + chunk).split('\n');
        pending = complete.pop() as string;
        for (const line of complete) this.take(line);
        this.notify();
      });
    }
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    void this.exited.then(() => {
      this.ended = true;
      live.delete(child);
      this.notify();
    });
  }

  static spawn({ entry, env, args = [], nodeArgs = [], cwd }: ServerLaunch): ServerProcess {
    const child = spawn(process.execPath, [...nodeArgs, entry, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child);
    return new ServerProcess(child);
  }

  get pid(): number {
    return this.child.pid as number;
  }

  /** Everything it has written, stdout and stderr. */
  output(): string {
    return this.text.join('\n');
  }

  /** Waits for the `serving` log line (at LOG_LEVEL info or finer) and takes the URLs from it. */
  async untilServing(): Promise<this> {
    const serving = await this.waitForLine((line) => line.message === 'serving');
    this.url = `http://127.0.0.1:${serving.port}`;
    this.secureUrl = `https://127.0.0.1:${serving.securePort}`;
    return this;
  }

  /** Waits until `url`/healthz answers 200 (at any log level); stops the process and fails if it never does. */
  async untilHealthy(url: string, timeoutMs: number): Promise<this> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && !this.ended) {
      if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) {
        this.url = url;
        return this;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await this.stop();
    throw new Error(`the server did not start; its output:\n${this.output()}`);
  }

  /** Waits for a log line that matches. */
  waitForLine(match: (line: LogLine) => boolean, timeoutMs = 30_000): Promise<LogLine> {
    return new Promise<LogLine>((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`no such log line within ${timeoutMs} ms:\n${this.output()}`)), timeoutMs);
      const check = () => {
        const found = this.lines.find(match);
        if (found) finish(undefined, found);
        else if (this.ended) finish(new Error(`the server exited:\n${this.output()}`));
      };
      const finish = (error?: Error, line?: LogLine) => {
        clearTimeout(timer);
        this.listeners.delete(check);
        if (error) reject(error);
        else resolve(line as LogLine);
      };
      this.listeners.add(check);
      check();
    });
  }

  /** Sends the signal (SIGTERM by default), SIGKILL if it is still there 30 s later; resolves with the exit code. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (!this.ended) this.child.kill(signal);
    const killer = setTimeout(() => this.child.kill('SIGKILL'), KILL_AFTER_MS);
    const code = await this.exited;
    clearTimeout(killer);
    return code;
  }

  /** Resident memory of the process in bytes, from /proc. */
  rss(): number {
    const line = readFileSync(`/proc/${this.pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
    return Number(line?.[1] ?? 0) * 1024;
  }

  /** CPU time the process has used so far (user and system), in ms, from /proc (10 ms resolution). */
  cpuMs(): number {
    return cpuMsOf(this.pid);
  }

  /** The same to the nanosecond, counting the threads alive now (see threadsCpuMsOf), for measurements of a few ms. */
  threadsCpuMs(): number {
    return threadsCpuMsOf(this.pid);
  }

  private take(line: string): void {
    this.text.push(line);
    try {
      this.lines.push(JSON.parse(line));
    } catch {
      // not a log line (e.g. a start-up error); kept in `text` for the failure message
    }
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
