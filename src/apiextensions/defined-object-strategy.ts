import { definedKind } from '../apimachinery/meta/object-meta-schema';
import { nameRules } from '../apimachinery/validation/names';
import { defineStrategy, GenerationPolicy, KindStrategy } from '../registry/kind-definition';

/** `com.example.stable.v1`: the package name the apiserver gives the types of a defined group version in OpenAPI. */
export const definedPackage = (group: string, version: string) => `${group.split('.').reverse().join('.')}.${version}`;

/**
 * The strategy of objects of a defined kind: ObjectMeta checked as for every kind, everything else kept as sent;
 * `overrides` add what the definition declares (a schema, a status).
 */
export function definedObjectStrategy(
  group: string,
  version: string,
  kind: string,
  generation: GenerationPolicy,
  overrides: Partial<KindStrategy> = {},
): KindStrategy {
  return defineStrategy({ nameRule: nameRules.dns1123Subdomain, shape: definedKind(definedPackage(group, version), kind), generation, ...overrides });
}
