import { definedKind } from '../apimachinery/meta/object-meta-schema';
import { nameRules } from '../apimachinery/validation/names';
import { defineStrategy, GenerationPolicy, KindStrategy } from '../registry/kind-definition';
import { SchemaNode } from '../apis/apiextensions/schema/structural-schema';

/** `com.example.stable.v1`: the package name the apiserver gives the types of a defined group version in OpenAPI. */
export const definedPackage = (group: string, version: string) => `${group.split('.').reverse().join('.')}.${version}`;

/** The schema of objects whose definition declares none (ThirdPartyResource data): anything goes. */
export const SCHEMALESS: SchemaNode = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

/** What a defined kind is: its group version and name, the schema its definition declares, and its generation rule. */
export interface DefinedKind {
  group: string;
  version: string;
  kind: string;
  schema: SchemaNode;
  generation: GenerationPolicy;
}

/**
 * The strategy of objects of a defined kind: ObjectMeta checked as for every kind, everything else kept as sent
 * and published in OpenAPI as the schema says; `overrides` add what the schema does to objects (defaults, pruning,
 * validation) and a status.
 */
export function definedObjectStrategy(defined: DefinedKind, overrides: Partial<KindStrategy> = {}): KindStrategy {
  const shape = definedKind(definedPackage(defined.group, defined.version), defined.kind, defined.schema);
  return defineStrategy({ nameRule: nameRules.dns1123Subdomain, shape, generation: defined.generation, ...overrides });
}
