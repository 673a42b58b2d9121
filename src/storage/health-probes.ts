import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from './database/database.tokens';
import { appliedMigrations, readMigrations } from './database/migrator';

/** The database's side of the readiness checks: does it answer, and has it applied this server's migrations. */
@Injectable()
export class HealthProbes {
  private readonly migrations = readMigrations().map((m) => m.name);

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** Resolves once the database has answered a statement. */
  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  /** The migrations this server ships that the database has not applied. */
  async missingMigrations(): Promise<string[]> {
    const applied = await appliedMigrations(this.pool);
    return this.migrations.filter((name) => !applied.has(name));
  }
}
