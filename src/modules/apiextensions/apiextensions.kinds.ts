import { defineKind, statusSubresource } from '../../registry/define-kind';
import { KindDefinition } from '../../registry/kind-definition';
import { APIEXTENSIONS } from './apiextensions.group';
import { CRD_COLUMNS } from './customresourcedefinition/crd.columns';
import { CRD_STRATEGY } from './customresourcedefinition/crd.strategy';

export const CUSTOM_RESOURCE_DEFINITIONS: KindDefinition = defineKind(APIEXTENSIONS, {
  resource: 'customresourcedefinitions',
  kind: 'CustomResourceDefinition',
  namespaced: false,
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  subresources: [statusSubresource('CustomResourceDefinition')],
  strategy: CRD_STRATEGY,
  columns: CRD_COLUMNS,
});
