import { Module } from '@nestjs/common';
import { registerApiGroup } from '../../registry/define-kind';
import { RBAC_V1, RBAC_V1BETA1 } from './rbac.group';
import { RBAC_V1_KINDS, RBAC_V1BETA1_KINDS } from './rbac.kinds';

/** The rbac.authorization.k8s.io API group: v1 (preferred, registered first) and v1beta1, over the same objects. */
@Module({ providers: [registerApiGroup(RBAC_V1, RBAC_V1_KINDS), registerApiGroup(RBAC_V1BETA1, RBAC_V1BETA1_KINDS)] })
export class RbacModule {}
