import { Module } from '@nestjs/common';
import { ControllerMetricsModule } from '../../controller-manager/controller-metrics.module';
import { GenericStoreModule } from '../../registry/store/generic-store.module';
import { WatchModule } from '../../watch/watch.module';
import { NamespaceController } from './namespace-controller.service';
import { NamespaceDeleter } from './namespace-deleter';
import { SystemNamespacesBootstrap } from './system-namespaces.bootstrap';

/** The system namespaces made at start, and the namespace controller (a controller of the controller manager). */
@Module({
  imports: [GenericStoreModule, WatchModule, ControllerMetricsModule],
  providers: [SystemNamespacesBootstrap, NamespaceDeleter, NamespaceController],
  exports: [NamespaceController],
})
export class NamespaceControllerModule {}
