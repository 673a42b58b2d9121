import { defineKind, statusSubresource } from '../../registry/define-kind';
import { KindDefinition } from '../../registry/kind-definition';
import { APIEXTENSIONS, APIEXTENSIONS_V1BETA1 } from './apiextensions.group';
import { CRD_COLUMNS } from './customresourcedefinition/crd.columns';
import { CRD_STRATEGY } from './customresourcedefinition/crd.strategy';
import { CRD_V1BETA1_CONVERSION } from './customresourcedefinition/crd.v1beta1.conversion';
import { CUSTOM_RESOURCE_DEFINITION_V1BETA1 } from './customresourcedefinition/crd.v1beta1.schema';

const CRD_ROW = {
  resource: 'customresourcedefinitions',
  kind: 'CustomResourceDefinition',
  namespaced: false,
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  subresources: [statusSubresource('CustomResourceDefinition')],
  columns: CRD_COLUMNS,
};

export const CUSTOM_RESOURCE_DEFINITIONS: KindDefinition = defineKind(APIEXTENSIONS, { ...CRD_ROW, strategy: CRD_STRATEGY });

/** The same definitions in the v1beta1 form: decoded and written in it, stored and checked as v1. */
export const CUSTOM_RESOURCE_DEFINITIONS_V1BETA1: KindDefinition = defineKind(APIEXTENSIONS_V1BETA1, {
  ...CRD_ROW,
  strategy: { ...CRD_STRATEGY, shape: CUSTOM_RESOURCE_DEFINITION_V1BETA1 },
  conversion: CRD_V1BETA1_CONVERSION,
});
