import { KubeObject } from '../../../apimachinery/meta/kube-object';

/** The parts of a CustomResourceDefinition the server reads (apiextensions.k8s.io/v1). */
export interface CrdNames {
  plural?: string;
  singular?: string;
  shortNames?: string[];
  kind?: string;
  listKind?: string;
  categories?: string[];
}

export interface CrdColumn {
  name?: string;
  type?: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath?: string;
}

export interface CrdScale {
  specReplicasPath?: string;
  statusReplicasPath?: string;
  labelSelectorPath?: string;
}

export interface CrdVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: unknown };
  subresources?: { status?: Record<string, never>; scale?: CrdScale };
  additionalPrinterColumns?: CrdColumn[];
}

export interface CrdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CustomResourceDefinition extends KubeObject {
  spec: {
    group?: string;
    names?: CrdNames;
    scope?: string;
    versions?: CrdVersion[];
    conversion?: { strategy?: string; webhook?: unknown };
    preserveUnknownFields?: boolean;
  };
  status?: { conditions?: CrdCondition[]; acceptedNames?: CrdNames; storedVersions?: string[] };
}

/** The finalizer that holds a deleted definition until its objects are gone. */
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';
