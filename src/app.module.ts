import { DynamicModule, Global, Module } from '@nestjs/common';
import { DefinedKindsModule } from './defined-kinds/defined-kinds.module';
import { AuthModule } from './auth/auth.module';
import { ApiServerModule } from './apiserver/api-server.module';
import { Settings } from './config/settings';
import { ControllerManagerModule } from './controller-manager/controller-manager.module';
import { GcModule } from './gc/gc.module';
import { GarbageCollector } from './gc/garbage-collector.service';
import { DeploymentControllerModule } from './controllers/deployment/deployment-controller.module';
import { DeploymentController } from './controllers/deployment/deployment-controller.service';
import { NamespaceControllerModule } from './controllers/namespace/namespace-controller.module';
import { NamespaceController } from './controllers/namespace/namespace-controller.service';
import { ClusterControllerModule } from './controllers/cluster/cluster-controller.module';
import { ClusterController } from './controllers/cluster/cluster-controller.service';
import { HealthModule } from './health/health.module';
import { CoreModule } from './apis/core/core.module';
import { ApiExtensionsGroupModule } from './apis/apiextensions/apiextensions.module';
import { ExtensionsModule } from './apis/extensions/extensions.module';
import { AppsModule } from './apis/apps/apps.module';
import { NetworkingModule } from './apis/networking/networking.module';
import { PolicyModule } from './apis/policy/policy.module';
import { DefaultIngressClassModule } from './apis/networking/ingressclass/default-ingress-class.module';
import { FederationModule } from './apis/federation/federation.module';
import { RbacModule } from './apis/rbac/rbac.module';
import { EventsModule } from './apis/events/events.module';
import { CoordinationModule } from './apis/coordination/coordination.module';
import { ObservabilityModule } from './observability/observability.module';
import { ServingModule } from './serving/serving.module';
import { StorageModule } from './storage/storage.module';
import { ResourceTransformers } from './storage/encryption/encryption-configuration';

/** Makes the server's settings injectable everywhere. */
@Global()
@Module({})
class SettingsModule {
  static forRoot(settings: Settings): DynamicModule {
    return { module: SettingsModule, providers: [{ provide: Settings, useValue: settings }], exports: [Settings] };
  }
}

@Module({})
export class AppModule {
  /** `encryption`: the transformers of the server's EncryptionConfiguration (read by createApp). */
  static forRoot(settings: Settings, databaseUrl: string, encryption: ResourceTransformers): DynamicModule {
    return {
      module: AppModule,
      imports: [
        SettingsModule.forRoot(settings),
        StorageModule.forRoot({ url: databaseUrl, readUrl: settings.DATABASE_READ_URL, poolSize: settings.DATABASE_POOL_SIZE, encryption }),
        ApiServerModule,
        CoreModule,
        ExtensionsModule,
        AppsModule,
        FederationModule,
        RbacModule,
        EventsModule,
        NetworkingModule,
        PolicyModule,
        DefaultIngressClassModule,
        CoordinationModule,
        ApiExtensionsGroupModule,
        DefinedKindsModule,
        ControllerManagerModule.running({
          imports: [GcModule, NamespaceControllerModule, ClusterControllerModule, DeploymentControllerModule],
          controllers: [GarbageCollector, NamespaceController, ClusterController, DeploymentController],
        }),
        ObservabilityModule,
        HealthModule,
        AuthModule,
        ServingModule,
      ],
    };
  }
}
