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
  specReplicasPath: [1, s.string, required],
  statusReplicasPath: [2, s.string, required],
  labelSelectorPath: [3, s.string, pointer],
});

export const CRD_SUBRESOURCES = APIEXTENSIONS_V1.struct('CustomResourceSubresources', {
  status: [1, APIEXTENSIONS_V1.struct('CustomResourceSubresourceStatus', {})],
  scale: [2, SCALE],
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
    name: [1, s.string, required],
    type: [2, s.string, required, oneOf('integer', 'number', 'string', 'boolean', 'date')],
    format: [3, s.string],
    description: [4, s.string],
    priority: [5, s.int32],
    ...({ [pathField]: path } as Record<PathField, typeof path>),
  });
  const version = pkg.struct('CustomResourceDefinitionVersion', {
    name: [1, s.string, required],
    served: [2, s.boolean, required],
    storage: [3, s.boolean, required],
    deprecated: [7, s.boolean],
    deprecationWarning: [8, s.string, pointer],
    schema: [4, CRD_VALIDATION],
    subresources: [5, CRD_SUBRESOURCES],
    additionalPrinterColumns: [6, s.list(column)],
  });
  return { column, version };
}

const { column: COLUMN, version: VERSION } = versionTypes(APIEXTENSIONS_V1, 'jsonPath');

const CONVERSION = APIEXTENSIONS_V1.struct('CustomResourceConversion', {
  strategy: [1, s.string, required, oneOf('None', 'Webhook')],
  webhook: [2, s.any],
});

const SPEC = APIEXTENSIONS_V1.struct('CustomResourceDefinitionSpec', {
  group: [1, s.string, required],
  names: [3, CRD_NAMES, required],
  scope: [4, s.string, required, oneOf('Cluster', 'Namespaced')],
  versions: [7, s.list(VERSION), required],
  conversion: [9, CONVERSION],
  preserveUnknownFields: [10, s.boolean],
});

const CONDITION = APIEXTENSIONS_V1.struct('CustomResourceDefinitionCondition', {
  type: [1, s.string, required],
  status: [2, s.string, required],
  lastTransitionTime: [3, s.time],
  reason: [4, s.string],
  message: [5, s.string],
});

export const CRD_STATUS = APIEXTENSIONS_V1.struct('CustomResourceDefinitionStatus', {
  conditions: [1, s.list(CONDITION), alwaysWritten],
  acceptedNames: [2, CRD_NAMES],
  storedVersions: [3, s.stringList, alwaysWritten],
});

export const CUSTOM_RESOURCE_DEFINITION = resourceKind(APIEXTENSIONS_V1, 'CustomResourceDefinition', {
  spec: [2, SPEC, required],
  status: [3, CRD_STATUS],
});

/** A definition as the server reads it: its defaults give every decoded one a spec. */
export type CustomResourceDefinition = KindObject<typeof CUSTOM_RESOURCE_DEFINITION> & { spec: TypeOf<typeof SPEC> };
export type CrdNames = TypeOf<typeof CRD_NAMES>;
export type CrdVersion = TypeOf<typeof VERSION>;
export type CrdColumn = TypeOf<typeof COLUMN>;
export type CrdScale = TypeOf<typeof SCALE>;
export type CrdCondition = TypeOf<typeof CONDITION>;

/** The finalizer that holds a deleted definition until its objects are gone. */
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';
