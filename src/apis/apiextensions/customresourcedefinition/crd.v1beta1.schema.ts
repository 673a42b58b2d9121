import { resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { goPackage } from '../../../apimachinery/schema/go-packages';
import { alwaysWritten, described, pointer, required, s } from '../../../apimachinery/schema/schema';
import { CRD_NAMES, CRD_STATUS, CRD_SUBRESOURCES, CRD_VALIDATION, versionTypes, webhookClientConfigType } from './crd.schema';

/** The protobuf package of apiextensions.k8s.io/v1beta1, the form 1.7 served (and later releases until 1.22). */
const V1BETA1 = goPackage('k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1', 'apiextensions.k8s.io/v1beta1');

const { column: COLUMN, version: VERSION } = versionTypes(V1BETA1, 'JSONPath');

const CONVERSION = V1BETA1.struct('CustomResourceConversion', {
  strategy: [1, s.string, alwaysWritten, described('How objects are converted between versions: None or Webhook.')],
  webhookClientConfig: [2, webhookClientConfigType(V1BETA1), pointer, described('Where the conversion webhook is reached.')],
  conversionReviewVersions: [3, s.stringList, described('ConversionReview versions the webhook accepts, by preference (v1beta1 by default).')],
});

const SPEC = V1BETA1.struct('CustomResourceDefinitionSpec', {
  group: [1, s.string, required, described('API group of the resource.')],
  version: [2, s.string, described('Version served; versions replaces it.')],
  names: [3, CRD_NAMES, required, described('Names the resource is known by.')],
  scope: [4, s.string, required, described('Where objects live: in namespaces (Namespaced) or in the cluster.')],
  validation: [5, CRD_VALIDATION, described('Schema the objects of every version are checked against.')],
  subresources: [6, CRD_SUBRESOURCES, described('Subresources served in every version.')],
  versions: [7, s.list(VERSION), described('Versions the resource is served in.')],
  additionalPrinterColumns: [8, s.list(COLUMN), described('Columns kubectl get shows for every version.')],
  conversion: [9, CONVERSION, described('How objects are converted between versions.')],
  preserveUnknownFields: [10, s.boolean, pointer, described('Whether unknown fields are kept rather than pruned; true by default.')],
});

export const CUSTOM_RESOURCE_DEFINITION_V1BETA1 = resourceKind(V1BETA1, 'CustomResourceDefinition', {
  spec: [2, SPEC, required, described('The resource the definition declares.')],
  status: [3, CRD_STATUS, described('Observed state of the definition.')],
});
