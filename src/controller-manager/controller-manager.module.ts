import { DynamicModule, Module, Type } from '@nestjs/common';
import { GenericStoreModule } from '../registry/store/generic-store.module';
import { WatchModule } from '../watch/watch.module';
import { Controller, CONTROLLERS } from './controller';
import { ControllerLeases } from './controller-leases';
import { ControllerManager } from './controller-manager.service';
import { ControllerMetricsModule } from './controller-metrics.module';

/** The controllers the manager runs: the modules that provide them, and each controller's provider. */
export interface ControllerList {
  imports: Type[];
  controllers: Type<Controller>[];
}

/**
 * The controller manager, over the controllers the application lists (as kube-controller-manager's list of
 * controllers): the controllers depend on the manager's pieces (work queue, metrics), never the other way round.
 */
@Module({})
export class ControllerManagerModule {
  static running({ imports, controllers }: ControllerList): DynamicModule {
    return {
      module: ControllerManagerModule,
      imports: [GenericStoreModule, WatchModule, ControllerMetricsModule, ...imports],
      providers: [
        ControllerLeases,
        ControllerManager,
        { provide: CONTROLLERS, useFactory: (...list: Controller[]) => list, inject: controllers },
      ],
    };
  }
}
