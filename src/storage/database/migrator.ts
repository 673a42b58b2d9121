import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'pg';

export const MIGRATIONS_DIR = join(__dirname, '..', '..', '..', 'prisma', 'migrations');

/** Prisma's own bookkeeping table, so that `prisma migrate status` agrees with what the server applied. */
const BOOKKEEPING = `
CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                  varchar(36)  PRIMARY KEY,
    checksum            varchar(64)  NOT NULL,
    finished_at         timestamptz,
    migration_name      varchar(255) NOT NULL,
    logs                text,
    rolled_back_at      timestamptz,
    started_at          timestamptz  NOT NULL DEFAULT now(),
    applied_steps_count integer      NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

/** The migrations applied so far: name → checksum. */
export async function appliedMigrations(db: Pick<Pool, 'query'>): Promise<Map<string, string>> {
  const { rows } = await db.query<{ migration_name: string; checksum: string }>(
    'SELECT migration_name, checksum FROM _prisma_migrations WHERE rolled_back_at IS NULL AND finished_at IS NOT NULL',
  );
  return new Map(rows.map((r) => [r.migration_name, r.checksum]));
}

/**
 * Applies the migrations not yet applied, in one transaction under a transaction-scoped advisory lock: instances that
 * start together wait for the first one and then find nothing left to do. Returns the names it applied.
 */
export async function applyMigrations(pool: Pool, migrations = readMigrations()): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(7365, 0)'); // (pgkube, migrations)
    await client.query(BOOKKEEPING);
    const applied = await appliedMigrations(client);
    const done: string[] = [];
    for (const migration of migrations) {
      const checksum = applied.get(migration.name);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) {
          throw new Error(`migration ${migration.name} was changed after it was applied (checksum differs)`);
        }
        continue;
      }
      await client.query(migration.sql);
      await client.query(
        `INSERT INTO _prisma_migrations (id, checksum, migration_name, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), 1)`,
        [randomUUID(), migration.checksum, migration.name],
      );
      done.push(migration.name);
    }
    await client.query('COMMIT');
    return done;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
