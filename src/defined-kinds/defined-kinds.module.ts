import { Module } from '@nestjs/common';
import { GenericStoreModule } from '../registry/store/generic-store.module';
import { WatchModule } from '../watch/watch.module';
import { DefinedObjectCleanup } from './defined-object-cleanup';
import { DEFINITION_SOURCES } from './definition-source';
import { ServedDefinitions } from './served-definitions.service';
import { THIRD_PARTY_RESOURCES } from './thirdparty/third-party-resources.source';
import { CUSTOM_RESOURCE_DEFINITIONS } from './custom/custom-resource-definitions.source';

/** Stored definitions become served APIs: rows of the kind registry, on every instance. */
@Module({
  imports: [GenericStoreModule, WatchModule],
  providers: [{ provide: DEFINITION_SOURCES, useValue: [THIRD_PARTY_RESOURCES, CUSTOM_RESOURCE_DEFINITIONS] }, DefinedObjectCleanup, ServedDefinitions],
})
export class DefinedKindsModule {}
