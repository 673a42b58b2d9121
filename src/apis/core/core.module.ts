import { Module } from '@nestjs/common';
import { registerApiGroup } from '../../registry/define-kind';
import { CORE, CORE_KINDS } from './core.kinds';
import { ServiceAccountTokensModule } from './serviceaccount/service-account-tokens.module';

/** The core v1 API group (ReplicationControllers, ServiceAccounts and their tokens). */
@Module({ imports: [ServiceAccountTokensModule], providers: [registerApiGroup(CORE, CORE_KINDS)] })
export class CoreModule {}
