import { Module } from '@nestjs/common';
import { ControllerMetricsModule } from '../../controller-manager/controller-metrics.module';
import { GenericStoreModule } from '../../registry/store/generic-store.module';
import { WatchModule } from '../../watch/watch.module';
import { ClusterController } from './cluster-controller.service';
import { ClusterStatusWriter } from './cluster-status-writer';
import { ClusterTargets } from './cluster-targets';

/** Federation's cluster controller (a controller of the controller manager). */
@Module({
  imports: [GenericStoreModule, WatchModule, ControllerMetricsModule],
  providers: [ClusterTargets, ClusterStatusWriter, ClusterController],
  exports: [ClusterController],
})
export class ClusterControllerModule {}
