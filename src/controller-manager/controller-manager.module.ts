import { Module } from '@nestjs/common';
import { NamespaceController } from '../controllers/namespace/namespace-controller.service';
import { NamespaceControllerModule } from '../controllers/namespace/namespace-controller.module';
import { GarbageCollector } from '../gc/garbage-collector.service';
import { GcModule } from '../gc/gc.module';
import { GenericStoreModule } from '../registry/store/generic-store.module';
import { WatchModule } from '../watch/watch.module';
import { CONTROLLERS } from './controller';
import { ControllerLeases } from './controller-leases';
import { ControllerManager } from './controller-manager.service';
import { ControllerMetricsModule } from './controller-metrics.module';

/** The controller manager and the controllers it runs (each a provider of its own module, listed in CONTROLLERS). */
@Module({
  imports: [GenericStoreModule, WatchModule, ControllerMetricsModule, GcModule, NamespaceControllerModule],
  providers: [
    ControllerLeases,
    ControllerManager,
    { provide: CONTROLLERS, useFactory: (...controllers: unknown[]) => controllers, inject: [GarbageCollector, NamespaceController] },
  ],
})
export class ControllerManagerModule {}
