import { Module } from '@nestjs/common';
import { registerApiGroup } from '../../registry/define-kind';
import { CORE, CORE_KINDS } from './core.kinds';

/** The core v1 API group (ReplicationControllers). */
@Module({ providers: [registerApiGroup(CORE, CORE_KINDS)] })
export class CoreModule {}
