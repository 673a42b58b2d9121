import { Module } from '@nestjs/common';
import { ObjectStorageModule } from '../../storage/objects/object-storage.module';
import { DryRunnableStore } from './dry-runnable-store';
import { WriteAdmissions } from './write-admission';
import { GenericRegistry } from './generic-registry';

/** The generic store of every kind, over the object storage (which it exports too, for readers of raw rows). */
@Module({
  imports: [ObjectStorageModule],
  providers: [DryRunnableStore, GenericRegistry, WriteAdmissions],
  exports: [ObjectStorageModule, GenericRegistry, WriteAdmissions],
})
export class GenericStoreModule {}
