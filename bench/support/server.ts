import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../test/support/global-setup';
import { createScratchDatabase, dropScratchDatabase } from '../../test/support/scratch-database';
import { treeCpuMs } from '../../test/support/process-cpu';
import { ServerProcess } from '../../test/support/server-process';

const ROOT = join(__dirname, '..', '..', '..');
/** The server run: this tree's build, or another's (BENCH_SERVER_MAIN, e.g. a build of the commit before a change). */
const MAIN = process.env.BENCH_SERVER_MAIN ?? join(ROOT, 'dist', 'main.js');
const START_TIMEOUT_MS = 120_000;

export interface ServerOptions {
  /** extra node flags, e.g. --cpu-prof */
  nodeArgs?: string[];
  /** extra settings for the server's environment */
  env?: Record<string, string>;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130)); // the servers go too

/** One server process (`node dist/main.js`, LOG_LEVEL warn) listening on a free port of 127.0.0.1. */
async function startServer(workDir: string, settings: Record<string, string>, options: ServerOptions): Promise<ServerProcess> {
  const port = await freePort();
  // the benchmarks write in namespaces nobody creates (and compare with builds that have no Namespace objects)
  const admission = { DISABLE_ADMISSION_PLUGINS: 'NamespaceLifecycle' };
  // they measure what a request costs: the deployment controller would answer each Deployment written with
  // ReplicaSets, Events and status writes of its own, counted as the requests' cost (CONTROLLERS=* for a build older
  // than that controller, which refuses its name)
  const controllers = { CONTROLLERS: '*,-deployment' };
  const env = { ...controllers, ...process.env, LOG_LEVEL: 'warn', SECURE_PORT: '0', ...admission, ...settings, ...options.env, INSECURE_BIND_ADDRESS: '127.0.0.1', PORT: String(port) };
  const server = ServerProcess.spawn({ entry: MAIN, env, nodeArgs: options.nodeArgs, cwd: workDir });
  return server.untilHealthy(`http://127.0.0.1:${port}`, START_TIMEOUT_MS);
}

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
    const cluster = new Cluster(workDir, base, base ? await createScratchDatabase(base, 'bench') : '');
    if (!base) {
      const pgPort = await freePort();
      const first = await startServer(workDir, { DATA_DIR: join(workDir, 'data'), EMBEDDED_POSTGRES_PORT: String(pgPort) }, options);
      cluster.servers.push(first);
      cluster.databaseUrl_ = `postgresql://postgres:pgkube@127.0.0.1:${pgPort}/pgkube`;
    }
    while (cluster.servers.length < count) await cluster.add(options);
    return cluster;
  }

  /**
   * CPU time (ms) of the embedded PostgreSQL so far: its postmaster and the processes it runs now (backends, writers);
   * undefined on the PostgreSQL of DATABASE_URL, whose processes serve others too.
   */
  postgresCpuMs(): number | undefined {
    if (this.ownDatabase) return undefined;
    const postmaster = Number(readFileSync(join(this.workDir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return treeCpuMs(postmaster);
  }

  /** Starts one more server over the cluster's database. */
  async add(options: ServerOptions = {}): Promise<ServerProcess> {
    const server = await startServer(this.workDir, { DATABASE_URL: this.databaseUrl }, options);
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
    if (this.ownDatabase) await dropScratchDatabase(this.ownDatabase, this.databaseUrl);
    rmSync(this.workDir, { recursive: true, force: true });
  }
}
