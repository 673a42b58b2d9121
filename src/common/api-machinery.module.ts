import { Global, Module } from '@nestjs/common';
import { DiscoveryService } from './discovery/discovery.service';
import { CreateHandler } from './handlers/create.handler';
import { DeleteCollectionHandler } from './handlers/delete-collection.handler';
import { DeleteHandler } from './handlers/delete.handler';
import { GetHandler } from './handlers/get.handler';
import { ListHandler } from './handlers/list.handler';
import { UpdateHandler } from './handlers/update.handler';
import { VerbHandlers } from './handlers/verb-handlers';
import { ApiController } from './http/api.controller';
import { InfoController } from './http/info.controller';
import { OpenApiController } from './http/openapi.controller';
import { KindRegistry } from './registry/kind-registry';
import { GenericRegistry } from './store/generic-registry';
import { ObjectStore } from './store/object-store';

/** The machinery every kind shares: the kind registry, the generic store, the verb handlers and the HTTP entry. */
@Global()
@Module({
  controllers: [ApiController, InfoController, OpenApiController],
  providers: [
    KindRegistry,
    ObjectStore,
    GenericRegistry,
    DiscoveryService,
    CreateHandler,
    GetHandler,
    ListHandler,
    UpdateHandler,
    DeleteHandler,
    DeleteCollectionHandler,
    VerbHandlers,
  ],
  exports: [KindRegistry, GenericRegistry, ObjectStore],
})
export class ApiMachineryModule {}
