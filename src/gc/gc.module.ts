import { Module } from '@nestjs/common';
import { ControllerMetricsModule } from '../controller-manager/controller-metrics.module';
import { GenericStoreModule } from '../registry/store/generic-store.module';
import { WatchModule } from '../watch/watch.module';
import { GarbageCollector } from './garbage-collector.service';

/** The garbage collector of dependents (ownerReferences), a controller of the controller manager. */
@Module({
  imports: [GenericStoreModule, WatchModule, ControllerMetricsModule],
  providers: [GarbageCollector],
  exports: [GarbageCollector],
})
export class GcModule {}
