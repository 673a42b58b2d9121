import { Module } from '@nestjs/common';
import { registerApiGroup } from '../../registry/define-kind';
import { APIEXTENSIONS } from './apiextensions.group';
import { CUSTOM_RESOURCE_DEFINITIONS } from './apiextensions.kinds';

/** The apiextensions.k8s.io/v1 API group: CustomResourceDefinitions (what they serve: src/apiextensions). */
@Module({ providers: [registerApiGroup(APIEXTENSIONS, [CUSTOM_RESOURCE_DEFINITIONS])] })
export class ApiExtensionsGroupModule {}
