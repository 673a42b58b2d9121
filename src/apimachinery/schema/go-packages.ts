import { FieldSpecs, JsonFieldSpecs, struct, StructSchema } from './schema';

/** A protobuf package of Go types, and the API version its kinds are served as (none for shared packages). */
export class GoPackage {
  readonly types = new Map<string, StructSchema>();

  constructor(
    readonly name: string,
    readonly apiVersion: string | undefined,
  ) {}

  struct<const Specs extends FieldSpecs>(name: string, specs: Specs): StructSchema<JsonFieldSpecs<Specs>> {
    const type = struct(this.name, name, specs);
    this.types.set(name, type);
    revision += 1;
    return type;
  }

  /** Gives a struct declared without fields its fields: how a type that contains itself is declared. */
  define(type: StructSchema, specs: FieldSpecs): void {
    const { fields, jsonFields } = struct(this.name, type.name, specs);
    Object.assign(type, { fields, jsonFields });
    revision += 1;
  }
}

/**
 * Every package whose types have been declared, by name: the catalogue the protobuf messages and the strategic merge
 * facts are derived from, as Go's scheme registers types when their package loads.
 */
const packages = new Map<string, GoPackage>();
let revision = 0;

/** The package of this name, declared on first use. */
export function goPackage(name: string, apiVersion?: string): GoPackage {
  let pkg = packages.get(name);
  if (!pkg) {
    pkg = new GoPackage(name, apiVersion);
    packages.set(name, pkg);
  } else if (apiVersion !== undefined && pkg.apiVersion !== apiVersion) {
    throw new Error(`package ${name} is served as ${pkg.apiVersion ?? 'no version'}, not ${apiVersion}`);
  }
  return pkg;
}

export const goPackages = (): GoPackage[] => [...packages.values()];

/** Changes whenever a type is declared: derived caches compare it. */
export const catalogueRevision = (): number => revision;

/**
 * A type served in an API version (`extensions/v1beta1`), by name; without a version, any served package's type of
 * that name.
 */
export function servedType(apiVersion: string | undefined, name: string): StructSchema | undefined {
  for (const pkg of packages.values()) {
    if (pkg.apiVersion === undefined || (apiVersion !== undefined && pkg.apiVersion !== apiVersion)) continue;
    const type = pkg.types.get(name);
    if (type) return type;
  }
  return undefined;
}

/** What declares structs: a package, or its types as stored only (outsideCatalogue). */
export type TypeDeclarer = Pick<GoPackage, 'name' | 'struct'>;

/**
 * The package's types as the store keeps them, not as any version serves them: a later release's fields of a type
 * whose served form stays older (the stored extensions Ingress with pathType). They stay out of the catalogue, so
 * the served type of the same name, with its protobuf message and OpenAPI definition, is unchanged.
 */
export function outsideCatalogue(pkg: GoPackage): TypeDeclarer {
  return { name: pkg.name, struct: (name, specs) => struct(pkg.name, name, specs) };
}
