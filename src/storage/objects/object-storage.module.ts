import { Module } from '@nestjs/common';
import { Pool } from 'pg';
import { READ_POOL } from '../database/database.tokens';
import { ServerMetrics } from '../../metrics/server-metrics';
import { GroupCommit } from './group-commit';
import { GroupRead, STALE_READS } from './group-read';
import { ObjectStore } from './object-store';
import { OutputCache } from './output-cache';

/** The `objects` table: its store, whose writes and reads by key go through this instance's group commit and reads. */
@Module({
  providers: [
    GroupCommit,
    GroupRead,
    { provide: STALE_READS, useFactory: (pool: Pool, metrics: ServerMetrics) => new GroupRead(pool, metrics), inject: [READ_POOL, ServerMetrics] },
    { provide: OutputCache, useFactory: () => new OutputCache() },
    ObjectStore,
  ],
  exports: [ObjectStore],
})
export class ObjectStorageModule {}
