import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './global-setup';

export interface SystemPostgres {
  /** a connection string to the `postgres` database as a superuser */
  adminUrl: string;
  stop(): void;
}

async function reachable(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** The server binaries of the machine's PostgreSQL that match its pg_dump (Debian: /usr/lib/postgresql/<major>/bin). */
function binaries(): string {
  const version = execFileSync('pg_dump', ['--version'], { encoding: 'utf8' });
  const major = /(\d+)\.\d+/.exec(version)?.[1];
  if (!major) throw new Error(`cannot read the version of pg_dump: ${version}`);
  return `/usr/lib/postgresql/${major}/bin`;
}

/**
 * A PostgreSQL of the same version as the machine's pg_dump and pg_restore (which refuse a newer server, such as the
 * tests' embedded one): BACKUP_TEST_POSTGRES_URL when set, the server on 127.0.0.1:5432 when one answers, otherwise a
 * private cluster started here from the machine's PostgreSQL binaries (and stopped by `stop`).
 */
export async function systemPostgres(): Promise<SystemPostgres> {
  const configured = process.env.BACKUP_TEST_POSTGRES_URL;
  if (configured) return { adminUrl: configured, stop: () => undefined };
  const local = 'postgresql://postgres@127.0.0.1:5432/postgres';
  if (await reachable(local)) return { adminUrl: local, stop: () => undefined };

  const bin = binaries();
  const dir = mkdtempSync(join(tmpdir(), 'pgkube-pg-'));
  chmodSync(dir, 0o777); // initdb and postgres run as the postgres user when we are root
  const data = join(dir, 'data');
  const port = await freePort();
  const asPostgres = (command: string, args: string[]) =>
    userInfo().uid === 0 ? execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' }) : execFileSync(command, args, { stdio: 'pipe' });
  asPostgres(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust']);
  asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-w', '-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start']);
  return {
    adminUrl: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-w', '-m', 'fast', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
