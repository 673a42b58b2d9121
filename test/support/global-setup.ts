import { chmodSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../../src/storage/database/embedded-postgres';

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * The tests' PostgreSQL: the server named by TEST_DATABASE_URL when set, otherwise an embedded one started here on a
 * free port in a temporary folder, so the suite needs no PostgreSQL of the machine's (and ignores one if present).
 * Each test file then creates a database of its own on it.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) {
    process.env.PGKUBE_TEST_ADMIN_URL = process.env.TEST_DATABASE_URL;
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'pgkube-test-'));
  chmodSync(dir, 0o755); // the postgres user must be able to reach its data folder
  const database = await startEmbeddedPostgres(join(dir, 'data'), await freePort(), () => undefined);
  process.env.PGKUBE_TEST_ADMIN_URL = database.url;
  (globalThis as Record<string, unknown>).__pgkubeTestDatabase = { database, dir };
}
