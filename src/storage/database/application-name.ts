import { hostname } from 'node:os';

/**
 * Names this instance's connections (`pgkube <host>/<pid>`) so that operators can tell instances apart in
 * pg_stat_activity and pg_locks; a name already in the connection string is kept.
 */
export function withApplicationName(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  if (!url.searchParams.has('application_name')) {
    url.searchParams.set('application_name', `pgkube ${hostname()}/${process.pid}`.slice(0, 63));
  }
  return url.toString();
}
