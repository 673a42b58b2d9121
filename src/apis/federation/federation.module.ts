import { Module } from '@nestjs/common';
import { registerApiGroup } from '../../registry/define-kind';
import { FEDERATION_KINDS } from './federation.kinds';
import { FEDERATION } from './federation.group';

/** The federation/v1beta1 API group. */
@Module({ providers: [registerApiGroup(FEDERATION, FEDERATION_KINDS)] })
export class FederationModule {}
