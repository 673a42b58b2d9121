import { DynamicModule, Global, Inject, Injectable, Logger, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Pool } from 'pg';
import { DATABASE_URL, PG_POOL, READ_POOL } from './database.tokens';
import { DatabaseHistory } from './database-history';
import { applyMigrations } from './migrator';
import { PrismaService } from './prisma.service';

const CONNECT_TIMEOUT_MS = 5000;

/** Applies pending migrations before the server takes requests, and closes the pool when it stops. */
@Injectable()
class DatabaseLifecycle implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Database');

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(READ_POOL) private readonly readPool: Pool,
    private readonly prisma: PrismaService,
    private readonly history: DatabaseHistory,
  ) {}

  async onModuleInit(): Promise<void> {
    // a restored backup or a promoted standby is adopted before a migration could write objects (their
    // resourceVersions are refused on a history not adopted), and again after the migration that starts the history
    await this.history.checkIfRecorded();
    const applied = await applyMigrations(this.pool);
    const known = await this.prisma.appliedMigration.count({ where: { finishedAt: { not: null } } });
    this.logger.log(`migrations: ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'} (${known} in total)`);
    await this.history.check();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.prisma.$disconnect();
    await this.pool.end();
    if (this.readPool !== this.pool) await this.readPool.end();
  }
}

export interface DatabaseOptions {
  url: string;
  /** a streaming standby for reads that may be stale (unset: every read from `url`) */
  readUrl?: string;
  poolSize: number;
}

/**
 * A pool of connections to `url`. A connection that cannot be had within CONNECT_TIMEOUT_MS (a host gone, a pool
 * held by stuck commits) is an outage the request answers with 503, not a wait without end.
 */
function openPool(url: string, size: number): Pool {
  const pool = new Pool({ connectionString: url, max: size, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
  // An idle connection that breaks (e.g. Postgres restarts) must not crash the process. Once the pool is ending,
  // its end() has resolved before the connections it closes are gone: one still closing when the database stops is
  // expected, not worth a warning.
  pool.on('error', (error) => {
    if (!pool.ending) new Logger('Database').warn(`idle connection lost: ${error.message}`);
  });
  return pool;
}

@Global()
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseOptions): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        { provide: DATABASE_URL, useValue: options.url },
        { provide: PG_POOL, useFactory: () => openPool(options.url, options.poolSize) },
        {
          provide: READ_POOL,
          useFactory: (primary: Pool) => (options.readUrl ? openPool(options.readUrl, options.poolSize) : primary),
          inject: [PG_POOL],
        },
        PrismaService,
        DatabaseHistory,
        DatabaseLifecycle,
      ],
      exports: [PG_POOL, READ_POOL, DATABASE_URL, PrismaService, DatabaseHistory],
    };
  }
}
