import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../test/support/global-setup';

const ROOT = join(__dirname, '..', '..', '..');
const MAIN = join(ROOT, 'dist', 'main.js');
const START_TIMEOUT_MS = 120_000;
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString());

export interface ServerOptions {
  /** extra node flags, e.g. --cpu-prof */
  nodeArgs?: string[];
  /** extra settings for the server's environment */
  env?: Record<string, string>;
}

/** One server process (`node dist/main.js`) listening on a free port of 127.0.0.1. */
export class ServerProcess {
  private exited: Promise<void>;

  private constructor(
    readonly url: string,
    private readonly child: ChildProcess,
    private readonly logFile: string,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  get pid(): number {
    return this.child.pid as number;
  }

  /** Resident memory of the process in bytes, from /proc. */
  rss(): number {
    const line = readFileSync(`/proc/${this.pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
    return Number(line?.[1] ?? 0) * 1024;
  }

  /** CPU time the process has used so far (user and system), in ms, from /proc (10 ms resolution). */
  cpuMs(): number {
    const fields = readFileSync(`/proc/${this.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  }

  static async start(workDir: string, settings: Record<string, string>, options: ServerOptions = {}): Promise<ServerProcess> {
    const port = await freePort();
    const logFile = join(workDir, `server-${port}.log`);
    const log = createWriteStream(logFile);
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), MAIN], {
      cwd: workDir,
      env: { ...process.env, LOG_LEVEL: 'warn', SECURE_PORT: '0', ...settings, ...options.env, INSECURE_BIND_ADDRESS: '127.0.0.1', PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    live.add(child);
    child.once('exit', () => live.delete(child));
    const server = new ServerProcess(`http://127.0.0.1:${port}`, child, logFile);
    await server.waitUntilReady();
    return server;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) this.child.kill('SIGTERM');
    const killer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    await this.exited;
    clearTimeout(killer);
  }

  private async waitUntilReady(): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) break;
      const ok = await fetch(`${this.url}/healthz`).then((r) => r.ok, () => false);
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await this.stop();
    throw new Error(`the server did not start; its log:\n${readFileSync(this.logFile, 'utf8')}`);
  }
}

const live = new Set<ChildProcess>();
process.once('exit', () => live.forEach((child) => child.kill('SIGKILL')));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

/**
 * Server processes over one database: a fresh `bench_` database on the PostgreSQL of DATABASE_URL when it is set,
 * otherwise the embedded PostgreSQL that the first server starts in a temporary DATA_DIR (the others connect to it).
 */
export class Cluster {
  readonly servers: ServerProcess[] = [];

  private constructor(
    readonly workDir: string,
    private readonly ownDatabase: string | undefined,
    private databaseUrl_: string,
  ) {}

  get databaseUrl(): string {
    return this.databaseUrl_;
  }

  static async start(count: number, options: ServerOptions = {}): Promise<Cluster> {
    const workDir = mkdtempSync(join(tmpdir(), 'pgkube-bench-'));
    chmodSync(workDir, 0o755); // an embedded PostgreSQL run as the postgres user must reach its data folder
    const base = process.env.DATABASE_URL;
    const cluster = new Cluster(workDir, base, base ? await createDatabase(base) : '');
    if (!base) {
      const pgPort = await freePort();
      const first = await ServerProcess.start(workDir, { DATA_DIR: join(workDir, 'data'), EMBEDDED_POSTGRES_PORT: String(pgPort) }, options);
      cluster.servers.push(first);
      cluster.databaseUrl_ = `postgresql://postgres:pgkube@127.0.0.1:${pgPort}/pgkube`;
    }
    while (cluster.servers.length < count) await cluster.add(options);
    return cluster;
  }

  /** Starts one more server over the cluster's database. */
  async add(options: ServerOptions = {}): Promise<ServerProcess> {
    const server = await ServerProcess.start(this.workDir, { DATABASE_URL: this.databaseUrl }, options);
    this.servers.push(server);
    return server;
  }

  /** Stops a server started with `add` (not the first of an embedded database, which owns it). */
  async remove(server: ServerProcess): Promise<void> {
    await server.stop();
    this.servers.splice(this.servers.indexOf(server), 1);
  }

  async stop(): Promise<void> {
    for (const server of [...this.servers].reverse()) await server.stop();
    if (this.ownDatabase) await dropDatabase(this.ownDatabase, this.databaseUrl);
    rmSync(this.workDir, { recursive: true, force: true });
  }
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function createDatabase(baseUrl: string): Promise<string> {
  const name = `bench_${randomBytes(5).toString('hex')}`;
  await adminQuery(baseUrl, `CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabase(baseUrl: string, databaseUrl: string): Promise<void> {
  await adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${new URL(databaseUrl).pathname.slice(1)} WITH (FORCE)`);
}
