import { DynamicModule, Module } from '@nestjs/common';
import { ApiMachineryModule } from './common/api-machinery.module';
import { DatabaseModule, DatabaseOptions } from './database/database.module';
import { CoreModule } from './modules/core/core.module';
import { ExtensionsModule } from './modules/extensions/extensions.module';
import { FederationModule } from './modules/federation/federation.module';

@Module({})
export class AppModule {
  static forRoot(database: DatabaseOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [DatabaseModule.forRoot(database), ApiMachineryModule, CoreModule, ExtensionsModule, FederationModule],
    };
  }
}
