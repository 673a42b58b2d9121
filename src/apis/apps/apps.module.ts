import { Module } from '@nestjs/common';
import { registerApiGroup } from '../../registry/define-kind';
import { APPS_V1, APPS_V1BETA1, APPS_V1BETA2 } from './apps.group';
import { APPS_V1_KINDS, APPS_V1BETA1_KINDS, APPS_V1BETA2_KINDS } from './apps.kinds';

/** The apps API group: v1 (preferred), v1beta2 and v1beta1, over the objects extensions/v1beta1 stores. */
@Module({
  providers: [
    registerApiGroup(APPS_V1, APPS_V1_KINDS),
    registerApiGroup(APPS_V1BETA2, APPS_V1BETA2_KINDS),
    registerApiGroup(APPS_V1BETA1, APPS_V1BETA1_KINDS),
  ],
})
export class AppsModule {}
