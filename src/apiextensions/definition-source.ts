import { KubeObject } from '../apimachinery/meta/kube-object';
import { KindDefinition, KindKey } from '../registry/kind-definition';

/** A stored kind whose objects define APIs (ThirdPartyResources, CustomResourceDefinitions). */
export interface DefinitionSource {
  /** where the definitions are stored and served */
  readonly stored: KindKey;
  /** the registry rows a definition serves; none while it cannot be served */
  kindsOf(definition: KubeObject): KindDefinition[];
}

/** The injection token of every definition source the server follows. */
export const DEFINITION_SOURCES = Symbol('DEFINITION_SOURCES');
