import { Module } from '@nestjs/common';
import { DryRunnableStore } from './dry-runnable-store';
import { GenericRegistry } from './generic-registry';
import { GroupCommit } from './group-commit';
import { ObjectStore } from './object-store';

/** The objects table and the generic store over it. */
@Module({
  providers: [GroupCommit, ObjectStore, DryRunnableStore, GenericRegistry],
  exports: [ObjectStore, GenericRegistry],
})
export class StorageModule {}
