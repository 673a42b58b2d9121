import { Module } from '@nestjs/common';
import { registerApiGroup } from '../../registry/define-kind';
import { APIEXTENSIONS, APIEXTENSIONS_V1BETA1 } from './apiextensions.group';
import { CUSTOM_RESOURCE_DEFINITIONS, CUSTOM_RESOURCE_DEFINITIONS_V1BETA1 } from './apiextensions.kinds';

/** The apiextensions.k8s.io API group, v1 and v1beta1: CustomResourceDefinitions (what they serve: src/apiextensions). */
@Module({
  providers: [
    registerApiGroup(APIEXTENSIONS, [CUSTOM_RESOURCE_DEFINITIONS]),
    registerApiGroup(APIEXTENSIONS_V1BETA1, [CUSTOM_RESOURCE_DEFINITIONS_V1BETA1]),
  ],
})
export class ApiExtensionsGroupModule {}
