import { DynamicModule, Global, Module } from '@nestjs/common';
import { ResourceTransformers } from './encryption-configuration';
import { EncryptionAtRest, RESOURCE_TRANSFORMERS } from './encryption-at-rest';

/** Encryption at rest, with the transformers of the server's EncryptionConfiguration (none: nothing is encrypted). */
@Global()
@Module({})
export class EncryptionModule {
  static forRoot(transformers: ResourceTransformers): DynamicModule {
    return {
      module: EncryptionModule,
      providers: [{ provide: RESOURCE_TRANSFORMERS, useValue: transformers }, EncryptionAtRest],
      exports: [EncryptionAtRest],
    };
  }
}
