import { DynamicModule, Global, Logger, Module } from '@nestjs/common';
import { readEncryptionConfiguration } from './encryption-configuration';
import { EncryptionAtRest, RESOURCE_TRANSFORMERS } from './encryption-at-rest';
import { IDENTITY } from './value-transformer';

/** Encryption at rest, configured by the EncryptionConfiguration file (`--encryption-provider-config`; none: off). */
@Global()
@Module({})
export class EncryptionModule {
  static forRoot(configFile: string | undefined): DynamicModule {
    return {
      module: EncryptionModule,
      providers: [
        {
          provide: RESOURCE_TRANSFORMERS,
          useFactory: () => {
            const transformers = readEncryptionConfiguration(configFile);
            for (const [resource, transformer] of transformers) {
              const writer = transformer.providers[0];
              new Logger('EncryptionAtRest').log({ message: 'values encrypted at rest', resource, writtenBy: writer === IDENTITY ? IDENTITY : writer.prefix });
            }
            return transformers;
          },
        },
        EncryptionAtRest,
      ],
      exports: [EncryptionAtRest],
    };
  }
}
