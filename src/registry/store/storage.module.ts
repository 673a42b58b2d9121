import { Module } from '@nestjs/common';
import { DryRunnableStore } from './dry-runnable-store';
import { WriteAdmissions } from './write-admission';
import { GenericRegistry } from './generic-registry';
import { GroupCommit } from './group-commit';
import { GroupRead } from './group-read';
import { ObjectStore } from './object-store';

/** The objects table and the generic store over it. */
@Module({
  providers: [GroupCommit, GroupRead, ObjectStore, DryRunnableStore, GenericRegistry, WriteAdmissions],
  exports: [ObjectStore, GenericRegistry, WriteAdmissions],
})
export class StorageModule {}
