import { DynamicModule, Global, Inject, Injectable, Logger, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Pool } from 'pg';
import { DATABASE_URL, PG_POOL } from './database.tokens';
import { applyMigrations } from './migrator';
import { PrismaService } from './prisma.service';

const CONNECT_TIMEOUT_MS = 5000;

/** Applies pending migrations before the server takes requests, and closes the pool when it stops. */
@Injectable()
class DatabaseLifecycle implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Database');

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly prisma: PrismaService,
  ) {}

  async onModuleInit(): Promise<void> {
    const applied = await applyMigrations(this.pool);
    const known = await this.prisma.appliedMigration.count({ where: { finishedAt: { not: null } } });
    this.logger.log(`migrations: ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'} (${known} in total)`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.prisma.$disconnect();
    await this.pool.end();
  }
}

export interface DatabaseOptions {
  url: string;
  poolSize: number;
}

@Global()
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseOptions): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        { provide: DATABASE_URL, useValue: options.url },
        {
          provide: PG_POOL,
          useFactory: () => {
            // A connection that cannot be had within CONNECT_TIMEOUT_MS (a host gone, a pool held by stuck commits)
            // is an outage the request answers with 503, not a wait without end.
            const pool = new Pool({ connectionString: options.url, max: options.poolSize, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
            // An idle connection that breaks (e.g. Postgres restarts) must not crash the process. Once the pool is
            // ending, its end() has resolved before the connections it closes are gone: one still closing when the
            // database stops is expected, not worth a warning.
            pool.on('error', (error) => {
              if (!pool.ending) new Logger('Database').warn(`idle connection lost: ${error.message}`);
            });
            return pool;
          },
        },
        PrismaService,
        DatabaseLifecycle,
      ],
      exports: [PG_POOL, DATABASE_URL, PrismaService],
    };
  }
}
