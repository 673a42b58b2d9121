import { Module } from '@nestjs/common';
import { GroupCommit } from './group-commit';
import { GroupRead } from './group-read';
import { ObjectStore } from './object-store';

/** The `objects` table: its store, whose writes and reads by key go through this instance's group commit and reads. */
@Module({
  providers: [GroupCommit, GroupRead, ObjectStore],
  exports: [ObjectStore],
})
export class ObjectStorageModule {}
