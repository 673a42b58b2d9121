import { DynamicModule, Module } from '@nestjs/common';
import { AuditEventStore } from './audit-events';
import { ChangeHistory } from './changes/change-history';
import { ChangeLogCompaction } from './changes/change-log-compaction';
import { ChangeNotifications } from './changes/change-notifications';
import { DatabaseModule, DatabaseOptions } from './database/database.module';
import { DefinedObjects } from './defined-objects';
import { EncryptionModule } from './encryption/encryption.module';
import { ResourceTransformers } from './encryption/encryption-configuration';
import { HealthProbes } from './health-probes';
import { ObjectGraph } from './object-graph';
import { ObjectStorageModule } from './objects/object-storage.module';
import { PoolState } from './pool-state';

const PROVIDERS = [
  ChangeHistory,
  ChangeLogCompaction,
  ChangeNotifications,
  ObjectGraph,
  DefinedObjects,
  AuditEventStore,
  HealthProbes,
  PoolState,
];

/**
 * The storage layer, for every module: the database (pool, Prisma client, migrations), the object store, and the
 * other tables' readers and writers, each in the API's terms.
 */
@Module({})
export class StorageModule {
  static forRoot(options: DatabaseOptions & { encryption: ResourceTransformers }): DynamicModule {
    return {
      module: StorageModule,
      global: true,
      imports: [DatabaseModule.forRoot(options), EncryptionModule.forRoot(options.encryption), ObjectStorageModule],
      providers: PROVIDERS,
      exports: [...PROVIDERS, ObjectStorageModule],
    };
  }
}
