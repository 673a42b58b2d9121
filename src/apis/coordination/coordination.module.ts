import { Module } from '@nestjs/common';
import { registerApiGroup } from '../../registry/define-kind';
import { COORDINATION_V1 } from './coordination.group';
import { COORDINATION_V1_KINDS } from './coordination.kinds';

/** The coordination.k8s.io/v1 API group: Leases, which leader election and heartbeats write. */
@Module({ providers: [registerApiGroup(COORDINATION_V1, COORDINATION_V1_KINDS)] })
export class CoordinationModule {}
