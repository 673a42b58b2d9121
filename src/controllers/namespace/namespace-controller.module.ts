import { Module } from '@nestjs/common';
import { GcModule } from '../../gc/gc.module';
import { GenericStoreModule } from '../../registry/store/generic-store.module';
import { WatchModule } from '../../watch/watch.module';
import { NamespaceController } from './namespace-controller.service';
import { NamespaceDeleter } from './namespace-deleter';
import { SystemNamespacesBootstrap } from './system-namespaces.bootstrap';

/** The system namespaces made at start, and the controller that empties and removes deleted namespaces. */
@Module({
  imports: [GenericStoreModule, WatchModule, GcModule],
  providers: [SystemNamespacesBootstrap, NamespaceDeleter, NamespaceController],
})
export class NamespaceControllerModule {}
