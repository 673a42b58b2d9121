import { KubeObject } from '../apimachinery/meta/kube-object';
import { KindDefinition, KindKey } from '../registry/kind-definition';

/** A stored kind whose objects define APIs (ThirdPartyResources, CustomResourceDefinitions). */
export interface DefinitionSource {
  /** where the definitions are stored and served */
  readonly stored: KindKey;
  /** the registry rows a definition serves; none while it cannot be served */
  kindsOf(definition: KubeObject): KindDefinition[];
  /** how a deleted definition is held until the server has deleted its objects (a CRD's), if it is */
  readonly cleanup?: DefinitionCleanup;
  /** records in a definition that a resource it names is served already, so it is not (a CRD's conditions) */
  refused?(definition: KubeObject, resource: string): void;
}

export interface DefinitionCleanup {
  /** the finalizer that holds the definition */
  finalizer: string;
  /** marks the definition as having its objects deleted (a CRD's Terminating condition) */
  inProgress(definition: KubeObject): void;
}

/** The injection token of every definition source the server follows. */
export const DEFINITION_SOURCES = Symbol('DEFINITION_SOURCES');
