import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from './database/database.tokens';

/** How busy this instance's connection pool is, read at the moment asked. */
@Injectable()
export class PoolState {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** Open connections that wait for a statement. */
  get idle(): number {
    return this.pool.idleCount;
  }

  /** Open connections that run a statement or hold a transaction or a session. */
  get inUse(): number {
    return this.pool.totalCount - this.pool.idleCount;
  }

  /** Statements waiting for a connection. */
  get waiting(): number {
    return this.pool.waitingCount;
  }
}
