import { Module } from '@nestjs/common';
import { registerApiGroup } from '../../registry/define-kind';
import { POLICY_V1BETA1 } from './policy.group';
import { POLICY_V1BETA1_KINDS } from './policy.kinds';

/** The policy/v1beta1 API group: PodSecurityPolicies, over the objects extensions stores. */
@Module({ providers: [registerApiGroup(POLICY_V1BETA1, POLICY_V1BETA1_KINDS)] })
export class PolicyModule {}
