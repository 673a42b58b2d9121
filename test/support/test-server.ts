import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { createApp } from '../../src/app';
import { loadSettings } from '../../src/config/settings';
import { SecureServer } from '../../src/serving/secure-server';
import { createScratchDatabase, dropScratchDatabase } from './scratch-database';

export interface TestServer {
  /** base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** the secure port's base URL when `env` gave SECURE_PORT, e.g. https://127.0.0.1:41235 */
  secureUrl?: string;
  databaseUrl: string;
  app: NestFastifyApplication;
  /** runs SQL on the server's database */
  sql<T extends Record<string, unknown> = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

function adminUrl(): string {
  const url = process.env.PGKUBE_TEST_ADMIN_URL;
  if (!url) throw new Error('PGKUBE_TEST_ADMIN_URL is not set: run the tests with `npm test`');
  return url;
}

/** A fresh, empty database on the tests' PostgreSQL; returns its connection string. */
export const createTestDatabase = (): Promise<string> => createScratchDatabase(adminUrl(), 'pgkube_test');

export const dropTestDatabase = (databaseUrl: string): Promise<void> => dropScratchDatabase(adminUrl(), databaseUrl);

/**
 * The settings of a server whose tests compare their own objects, writes, resourceVersions or watch events exactly
 * (or the whole database): no deployment controller, whose ReplicaSets, Events and status writes would follow every
 * Deployment they create. The controller itself is tested with it on.
 */
export const WITHOUT_DEPLOYMENT_CONTROLLER = { CONTROLLERS: '*,-deployment' };

/**
 * Leases renewed rarely (not within a test file's run), so that the controllers' Lease writes do not land amid a
 * test's comparisons of the database or the change log (a test of the controller manager passes its own timings).
 */
const QUIET_LEADER_ELECTION = { LEADER_ELECT_LEASE_DURATION: '1h', LEADER_ELECT_RENEW_DEADLINE: '50m', LEADER_ELECT_RETRY_PERIOD: '40m' };

/** Clusters probed rarely, for the same reason (a test of the cluster controller passes its own period). */
const QUIET_CLUSTER_MONITOR = { CLUSTER_MONITOR_PERIOD: '1h' };

/**
 * Starts the real server (HTTP on a free port) over a fresh database, or over `databaseUrl`; `env` overrides
 * settings as the environment would. With SECURE_PORT in `env` the secure port is served too (on 127.0.0.1 unless
 * BIND_ADDRESS says otherwise).
 */
export async function startTestServer(databaseUrl?: string, env: Record<string, string> = {}): Promise<TestServer> {
  const ownDatabase = databaseUrl === undefined;
  const dbUrl = databaseUrl ?? (await createTestDatabase());
  const settings = loadSettings({ DATABASE_POOL_SIZE: '5', LOG_LEVEL: 'warn', BIND_ADDRESS: '127.0.0.1', ...QUIET_LEADER_ELECTION, ...QUIET_CLUSTER_MONITOR, ...env });
  const app = await createApp(settings, dbUrl);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  const secure = env.SECURE_PORT !== undefined ? await app.get(SecureServer).listen() : undefined;
  const client = new Client({ connectionString: dbUrl });
  client.on('error', () => undefined); // a test may cut this instance's connections; it then uses another's sql()
  await client.connect();
  return {
    url: `http://127.0.0.1:${port}`,
    secureUrl: secure && `https://127.0.0.1:${secure.port}`,
    databaseUrl: dbUrl,
    app,
    sql: async (text, values) => (await client.query(text, values)).rows,
    close: async () => {
      await client.end();
      await app.close();
      if (ownDatabase) await dropTestDatabase(dbUrl);
    },
  };
}
