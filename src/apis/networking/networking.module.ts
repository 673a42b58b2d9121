import { Module } from '@nestjs/common';
import { registerApiGroup } from '../../registry/define-kind';
import { NETWORKING_V1 } from './networking.group';
import { NETWORKING_V1_KINDS } from './networking.kinds';

/** The networking.k8s.io/v1 API group: Ingresses and NetworkPolicies over the objects extensions stores, and IngressClasses. */
@Module({ providers: [registerApiGroup(NETWORKING_V1, NETWORKING_V1_KINDS)] })
export class NetworkingModule {}
