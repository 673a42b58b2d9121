import { Module } from '@nestjs/common';
import { GenericStoreModule } from '../registry/store/generic-store.module';
import { WatchModule } from '../watch/watch.module';
import { CollectorLeadership } from './collector-leadership';
import { GarbageCollector } from './garbage-collector.service';

/** The in-server garbage collector of dependents (ownerReferences) and its leadership among instances. */
@Module({
  imports: [GenericStoreModule, WatchModule],
  providers: [CollectorLeadership, GarbageCollector],
  exports: [GarbageCollector, CollectorLeadership],
})
export class GcModule {}
