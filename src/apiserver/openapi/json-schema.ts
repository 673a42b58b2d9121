import { Field, LeafType, Schema, StructSchema } from '../../apimachinery/schema/schema';
import { declaredDefinition } from './declared-schema';
import { JsonSchema } from './schema-object';
import { listTypeOf } from '../../fieldmanager/apply-type';

/** The definitions that leaves refer to, as the apiserver names and types them. */
const LEAF_DEFINITIONS: Partial<Record<LeafType, { name: string; schema: JsonSchema }>> = {
  intOrString: {
    name: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
    schema: { type: 'string', format: 'int-or-string', description: 'An integer or a string.' },
  },
  quantity: {
    name: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
    schema: { type: 'string', description: 'A fixed-point number with a unit suffix: "500m", "1.5Gi", "2".' },
  },
  time: {
    name: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
    schema: { type: 'string', format: 'date-time', description: 'An RFC 3339 time in whole seconds.' },
  },
  microTime: {
    name: 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
    schema: { type: 'string', format: 'date-time', description: 'An RFC 3339 time with microseconds.' },
  },
  fieldsV1: {
    name: 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
    schema: { type: 'object', description: 'A set of fields of server-side apply, as a tree of f:, k:, v: and i: keys.' },
  },
  any: {
    name: 'io.k8s.apimachinery.pkg.runtime.RawExtension',
    schema: { type: 'object', description: 'An embedded object, kept as sent.' },
  },
};

const TYPE_META = {
  apiVersion: { type: 'string', description: 'The versioned schema of this object: its group and version.' },
  kind: { type: 'string', description: 'The kind of this object.' },
};

const SCALARS: Partial<Record<LeafType, JsonSchema>> = {
  string: { type: 'string' },
  boolean: { type: 'boolean' },
  int32: { type: 'integer', format: 'int32' },
  int64: { type: 'integer', format: 'int64' },
  bytes: { type: 'string', format: 'byte' },
};

/** The apiserver's name of a type's definition: its Go package path with the domain reversed. */
export function definitionName(type: StructSchema): string {
  const pkg = type.package.startsWith('k8s.io.') ? `io.k8s.${type.package.slice('k8s.io.'.length)}` : type.package;
  return `${pkg}.${type.name}`;
}

/**
 * Writes schemas whose structs are references under `refPrefix` (`#/definitions/` or `#/components/schemas/`).
 * What a field says of a referenced type sits beside the `$ref` in v2 (as the apiserver writes it) and in an `allOf`
 * around it in v3, where a reference takes no siblings.
 */
export class SchemaWriter {
  constructor(
    private readonly refPrefix: string,
    private readonly wrapReferences: boolean,
  ) {}

  schema(schema: Schema): JsonSchema {
    switch (schema.type) {
      case 'struct':
        return { $ref: `${this.refPrefix}${definitionName(schema)}` };
      case 'list':
        return { type: 'array', items: this.schema(schema.items) };
      case 'map':
        return { type: 'object', additionalProperties: this.schema(schema.values) };
      default: {
        const leaf = LEAF_DEFINITIONS[schema.type];
        return leaf ? { $ref: `${this.refPrefix}${leaf.name}` } : { ...SCALARS[schema.type] };
      }
    }
  }

  /**
   * A struct's definition: its JSON fields as properties, with their patch facts, enums and required ones; a kind's
   * (`extensions` name its group-version-kinds) also has `apiVersion` and `kind`, which its body carries.
   */
  definition(type: StructSchema, extensions: JsonSchema = {}): JsonSchema {
    if (type.declared) {
      // v2 documents are the ones whose references are not wrapped
      return declaredDefinition(type.declared, this.schema(type.jsonFields.metadata.schema), !this.wrapReferences, extensions);
    }
    const fields = Object.entries(type.jsonFields);
    const required = fields.filter(([, field]) => field.required).map(([name]) => name);
    const typeMeta = extensions['x-kubernetes-group-version-kind'] ? TYPE_META : {};
    return {
      type: 'object',
      properties: { ...typeMeta, ...Object.fromEntries(fields.map(([name, field]) => [name, this.property(field)])) },
      ...(required.length > 0 && { required }),
      ...(type.atomic && { 'x-kubernetes-map-type': 'atomic' }),
      ...extensions,
    };
  }

  private property(field: Field): JsonSchema {
    const schema = this.schema(field.schema);
    const facts = {
      ...(field.description && { description: field.description }),
      ...(field.enum && { enum: field.enum }),
      ...(field.patchStrategy && { 'x-kubernetes-patch-strategy': field.patchStrategy }),
      ...(field.patchMergeKey && { 'x-kubernetes-patch-merge-key': field.patchMergeKey }),
      ...applyFacts(field),
    };
    if (Object.keys(facts).length === 0) return schema;
    return schema.$ref && this.wrapReferences ? { allOf: [schema], ...facts } : { ...schema, ...facts };
  }
}

/** How server-side apply treats the field, as the current apiserver publishes it: list types, atomic maps. */
function applyFacts(field: Field): JsonSchema {
  if (field.schema.type === 'map') return field.atomic ? { 'x-kubernetes-map-type': 'atomic' } : {};
  if (field.schema.type !== 'list') return {};
  const list = listTypeOf(field.schema.items, field);
  return { 'x-kubernetes-list-type': list.type, ...(list.type === 'map' && { 'x-kubernetes-list-map-keys': list.keys }) };
}

/** The definitions of the leaves that `types` use, by name. */
export function leafDefinitions(types: readonly StructSchema[]): Map<string, JsonSchema> {
  const found = new Map<string, JsonSchema>();
  const visit = (schema: Schema): void => {
    if (schema.type === 'list') visit(schema.items);
    else if (schema.type === 'map') visit(schema.values);
    else if (schema.type !== 'struct') {
      const leaf = LEAF_DEFINITIONS[schema.type];
      if (leaf) found.set(leaf.name, leaf.schema);
    }
  };
  for (const type of types) for (const field of Object.values(type.jsonFields)) visit(field.schema);
  return found;
}

/** Every struct `roots` reach through their JSON fields, roots first. */
export function reachableTypes(roots: readonly StructSchema[]): StructSchema[] {
  const found = new Set<StructSchema>();
  const visit = (schema: Schema): void => {
    if (schema.type === 'list') visit(schema.items);
    else if (schema.type === 'map') visit(schema.values);
    else if (schema.type === 'struct' && !found.has(schema)) {
      found.add(schema);
      for (const field of Object.values(schema.jsonFields)) visit(field.schema);
    }
  };
  roots.forEach(visit);
  return [...found];
}
