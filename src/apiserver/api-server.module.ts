import { Global, Module } from '@nestjs/common';
import { DiscoveryService } from './discovery/discovery.service';
import { OpenApiDocuments } from './openapi/openapi-documents';
import { CreateHandler } from './handlers/create.handler';
import { DeleteCollectionHandler } from './handlers/delete-collection.handler';
import { DeleteHandler } from './handlers/delete.handler';
import { GetHandler } from './handlers/get.handler';
import { ListHandler } from './handlers/list.handler';
import { PatchHandler } from './handlers/patch.handler';
import { RollbackHandler } from './handlers/rollback.handler';
import { TokenHandler } from './handlers/token.handler';
import { UpdateHandler } from './handlers/update.handler';
import { VERB_HANDLER_LIST, VerbHandlers } from './handlers/verb-handlers';
import { ApiController } from './http/api.controller';
import { InfoController } from './http/info.controller';
import { RequestInfoFilter } from './request/request-info.filter';
import { OpenApiController } from './http/openapi.controller';
import { KindRegistry } from '../registry/kind-registry';
import { ScaleRegistry } from '../registry/scale/scale-registry';
import { Storages } from '../registry/rest/storages';
import { GenericStoreModule } from '../registry/store/generic-store.module';
import { WatchHandler } from './handlers/watch.handler';
import { WatchModule } from '../watch/watch.module';
import { NamespaceLifecycleAdmission } from './admission/namespace-lifecycle.admission';

/** Every verb handler; each declares the routes (verb, subresource) it serves. */
const HANDLERS = [
  CreateHandler,
  GetHandler,
  ListHandler,
  UpdateHandler,
  PatchHandler,
  DeleteHandler,
  DeleteCollectionHandler,
  WatchHandler,
  RollbackHandler,
  TokenHandler,
];

/** The machinery every kind shares: the kind registry, the generic store, the verb handlers and the HTTP entry. */
@Global()
@Module({
  imports: [GenericStoreModule, WatchModule],
  controllers: [ApiController, InfoController, OpenApiController],
  providers: [
    KindRegistry,
    ScaleRegistry,
    Storages,
    DiscoveryService,
    OpenApiDocuments,
    ...HANDLERS,
    { provide: VERB_HANDLER_LIST, useFactory: (...handlers: unknown[]) => handlers, inject: HANDLERS },
    VerbHandlers,
    RequestInfoFilter,
    NamespaceLifecycleAdmission,
  ],
  exports: [KindRegistry, GenericStoreModule, ScaleRegistry, RequestInfoFilter],
})
export class ApiServerModule {}
