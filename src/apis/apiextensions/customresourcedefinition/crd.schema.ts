import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { GoPackage } from '../../../apimachinery/schema/go-packages';
import { alwaysWritten, described, oneOf, pointer, required, s } from '../../../apimachinery/schema/schema';
import { TypeOf } from '../../../apimachinery/schema/type-of';
import { APIEXTENSIONS_V1 } from '../apiextensions.group';

export const CRD_NAMES = APIEXTENSIONS_V1.struct('CustomResourceDefinitionNames', {
  plural: [1, s.string, required, described('The plural name of the resource, its path segment: `/apis/<group>/<version>/<plural>`.')],
  singular: [2, s.string, described('The singular name (defaults to the kind in lower case).')],
  shortNames: [3, s.stringList, described('Short names for the resource, which kubectl accepts in place of its name.')],
  kind: [4, s.string, required, described('The kind of the objects (CamelCase, singular).')],
  listKind: [5, s.string, described('The kind of its lists (defaults to `<kind>List`).')],
  categories: [6, s.stringList, described('Groups of resources this one belongs to, such as `all` (`kubectl get all`).')],
});

const SCALE = APIEXTENSIONS_V1.struct('CustomResourceSubresourceScale', {
  specReplicasPath: [1, s.string, required, described('JSON path of the wanted replica count in each object, such as .spec.replicas.')],
  statusReplicasPath: [2, s.string, required, described('JSON path of the observed replica count.')],
  labelSelectorPath: [3, s.string, pointer, described('JSON path of the pod selector, in label-selector text.')],
});

const STATUS_SUBRESOURCE = APIEXTENSIONS_V1.struct('CustomResourceSubresourceStatus', {});

export const CRD_SUBRESOURCES = APIEXTENSIONS_V1.struct('CustomResourceSubresources', {
  status: [1, STATUS_SUBRESOURCE, described('When set, the status subresource is served and writes to the object leave status alone.')],
  scale: [2, SCALE, described('When set, the scale subresource is served.')],
});

export const CRD_VALIDATION = APIEXTENSIONS_V1.struct('CustomResourceValidation', {
  openAPIV3Schema: [1, s.any, described('The OpenAPI v3 schema objects of this version are validated, pruned and defaulted with.')],
});

/**
 * A definition's version, with its printer columns, as a package declares them: v1beta1 names a column's path
 * `JSONPath`, v1 `jsonPath`.
 */
export function versionTypes<PathField extends 'jsonPath' | 'JSONPath'>(pkg: GoPackage, pathField: PathField) {
  const path = [6, s.string, required, described('A simple JSONPath into each object, such as `.spec.cronSpec`.')] as const;
  const column = pkg.struct('CustomResourceColumnDefinition', {
    name: [1, s.string, required, described('Heading of the column.')],
    type: [2, s.string, required, oneOf('integer', 'number', 'string', 'boolean', 'date'), described('Type of the values of the column.')],
    format: [3, s.string, described('Format of the values, such as int32 or date-time.')],
    description: [4, s.string, described('What the column shows.')],
    priority: [5, s.int32, described('Importance; columns above 0 show only in the wide output.')],
    ...({ [pathField]: path } as Record<PathField, typeof path>),
  });
  const version = pkg.struct('CustomResourceDefinitionVersion', {
    name: [1, s.string, required, described('Name of the version, such as v1.')],
    served: [2, s.boolean, required, described('Whether the version is served.')],
    storage: [3, s.boolean, required, described('Whether objects are stored in this version; exactly one version is.')],
    deprecated: [7, s.boolean, described('Whether the version is deprecated, which adds a warning to its answers.')],
    deprecationWarning: [8, s.string, pointer, described('Warning sent in place of the default one.')],
    schema: [4, CRD_VALIDATION, described('Schema the objects of this version are checked against.')],
    subresources: [5, CRD_SUBRESOURCES, described('Subresources served in this version.')],
    additionalPrinterColumns: [6, s.list(column), described('Columns kubectl get shows for this version.')],
  });
  return { column, version };
}

const { column: COLUMN, version: VERSION } = versionTypes(APIEXTENSIONS_V1, 'jsonPath');

/** Where a conversion webhook is reached, as each package declares it (v1 and v1beta1 alike). */
export function webhookClientConfigType(pkg: GoPackage) {
  const service = pkg.struct('ServiceReference', {
    namespace: [1, s.string, required, described('Namespace of the service.')],
    name: [2, s.string, required, described('Name of the service.')],
    path: [3, s.string, pointer, described('URL path the webhook is called at.')],
    port: [4, s.int32, pointer, described('Port of the service (443 by default).')],
  });
  return pkg.struct('WebhookClientConfig', {
    url: [3, s.string, pointer, described('HTTPS URL of the webhook (`https://host:port/path`); exactly one of url and service is set.')],
    service: [1, service, pointer, described('Service the webhook is reached through.')],
    caBundle: [2, s.bytes, described('PEM certificates of the CAs the webhook’s serving certificate is checked against (the system roots when empty).')],
  });
}

const WEBHOOK_CONVERSION = APIEXTENSIONS_V1.struct('WebhookConversion', {
  clientConfig: [2, webhookClientConfigType(APIEXTENSIONS_V1), pointer, described('Where the webhook is reached.')],
  conversionReviewVersions: [3, s.stringList, required, described('ConversionReview versions the webhook accepts, by preference (v1, v1beta1).')],
});

const CONVERSION = APIEXTENSIONS_V1.struct('CustomResourceConversion', {
  strategy: [1, s.string, required, oneOf('None', 'Webhook'), described('How objects are converted between versions: None or Webhook.')],
  webhook: [2, WEBHOOK_CONVERSION, pointer, described('Webhook that converts the objects, with the Webhook strategy.')],
});

const SPEC = APIEXTENSIONS_V1.struct('CustomResourceDefinitionSpec', {
  group: [1, s.string, required, described('API group of the resource.')],
  names: [3, CRD_NAMES, required, described('Names the resource is known by.')],
  scope: [4, s.string, required, oneOf('Cluster', 'Namespaced'), described('Where objects live: in namespaces (Namespaced) or in the cluster.')],
  versions: [7, s.list(VERSION), required, described('Versions the resource is served in.')],
  conversion: [9, CONVERSION, described('How objects are converted between versions.')],
  preserveUnknownFields: [10, s.boolean, described('Whether unknown fields are kept rather than pruned (deprecated).')],
});

const CONDITION = APIEXTENSIONS_V1.struct('CustomResourceDefinitionCondition', {
  type: [1, s.string, required, described('Type of the condition, such as Established or NamesAccepted.')],
  status: [2, s.string, required, described('Whether the condition holds: True, False or Unknown.')],
  lastTransitionTime: [3, s.time, described('When the status of the condition last changed.')],
  reason: [4, s.string, described('Machine-readable reason for the last change, in CamelCase.')],
  message: [5, s.string, described('Human-readable details of the last change.')],
});

export const CRD_STATUS = APIEXTENSIONS_V1.struct('CustomResourceDefinitionStatus', {
  conditions: [1, s.list(CONDITION), alwaysWritten, described('Latest observations of the state of the definition.')],
  acceptedNames: [2, CRD_NAMES, described('Names actually served, which may differ from the spec while they conflict.')],
  storedVersions: [3, s.stringList, alwaysWritten, described('Versions objects have ever been stored in.')],
});

export const CUSTOM_RESOURCE_DEFINITION = resourceKind(APIEXTENSIONS_V1, 'CustomResourceDefinition', {
  spec: [2, SPEC, required, described('The resource the definition declares.')],
  status: [3, CRD_STATUS, described('Observed state of the definition.')],
});

/** A definition as the server reads it: its defaults give every decoded one a spec. */
export type CustomResourceDefinition = KindObject<typeof CUSTOM_RESOURCE_DEFINITION> & { spec: TypeOf<typeof SPEC> };
export type CrdNames = TypeOf<typeof CRD_NAMES>;
export type CrdVersion = TypeOf<typeof VERSION>;
export type CrdColumn = TypeOf<typeof COLUMN>;
export type CrdScale = TypeOf<typeof SCALE>;
export type CrdCondition = TypeOf<typeof CONDITION>;
export type CrdConversion = TypeOf<typeof CONVERSION>;
export type WebhookClientConfig = TypeOf<ReturnType<typeof webhookClientConfigType>>;

/** The finalizer that holds a deleted definition until its objects are gone. */
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';
