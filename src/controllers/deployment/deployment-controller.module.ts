import { Module } from '@nestjs/common';
import { ControllerMetricsModule } from '../../controller-manager/controller-metrics.module';
import { EventRecorder } from '../../controller-manager/event-recorder';
import { GenericStoreModule } from '../../registry/store/generic-store.module';
import { WatchModule } from '../../watch/watch.module';
import { DeploymentClient } from './deployment-client';
import { DeploymentController } from './deployment-controller.service';
import { DeploymentSync } from './deployment-sync';
import { ReplicaSetClaims } from './replica-set-claims';
import { DeploymentRollback } from './rollback';
import { Rollouts } from './rollouts';

/** The deployment controller (a controller of the controller manager) and its steps. */
@Module({
  imports: [GenericStoreModule, WatchModule, ControllerMetricsModule],
  providers: [EventRecorder, DeploymentClient, ReplicaSetClaims, DeploymentSync, Rollouts, DeploymentRollback, DeploymentController],
  exports: [DeploymentController],
})
export class DeploymentControllerModule {}
