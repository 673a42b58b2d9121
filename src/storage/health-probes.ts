import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from './database/database.tokens';
import { appliedMigrations, readMigrations } from './database/migrator';
import { probeWrite } from './database/write-probe';

/**
 * The database's side of the readiness checks: does it answer, does a write commit (through the synchronous standby
 * when the database has one), and has it applied this server's migrations.
 */
@Injectable()
export class HealthProbes {
  private readonly migrations = readMigrations().map((m) => m.name);

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** Resolves once the database has answered a statement. */
  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  /** Resolves once a tiny write committed within `timeoutMs`: writes can commit now. */
  async write(timeoutMs: number): Promise<void> {
    await probeWrite(this.pool, timeoutMs);
  }

  /** The migrations this server ships that the database has not applied. */
  async missingMigrations(): Promise<string[]> {
    const applied = await appliedMigrations(this.pool);
    return this.migrations.filter((name) => !applied.has(name));
  }
}
