import { resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { goPackage } from '../../../apimachinery/schema/go-packages';
import { alwaysWritten, pointer, required, s } from '../../../apimachinery/schema/schema';
import { CRD_NAMES, CRD_STATUS, CRD_SUBRESOURCES, CRD_VALIDATION, versionTypes } from './crd.schema';

/** The protobuf package of apiextensions.k8s.io/v1beta1, the form 1.7 served (and later releases until 1.22). */
const V1BETA1 = goPackage('k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1', 'apiextensions.k8s.io/v1beta1');

const { column: COLUMN, version: VERSION } = versionTypes(V1BETA1, 'JSONPath');

const SPEC = V1BETA1.struct('CustomResourceDefinitionSpec', {
  group: [1, s.string, required],
  version: [2, s.string],
  names: [3, CRD_NAMES, required],
  scope: [4, s.string, required],
  validation: [5, CRD_VALIDATION],
  subresources: [6, CRD_SUBRESOURCES],
  versions: [7, s.list(VERSION)],
  additionalPrinterColumns: [8, s.list(COLUMN)],
  conversion: [9, V1BETA1.struct('CustomResourceConversion', { strategy: [1, s.string, alwaysWritten], webhookClientConfig: [2, s.any] })],
  preserveUnknownFields: [10, s.boolean, pointer],
});

export const CUSTOM_RESOURCE_DEFINITION_V1BETA1 = resourceKind(V1BETA1, 'CustomResourceDefinition', {
  spec: [2, SPEC, required],
  status: [3, CRD_STATUS],
});
