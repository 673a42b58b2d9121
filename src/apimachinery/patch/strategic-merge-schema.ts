import { StructSchema } from '../schema/schema';

/**
 * What strategic merge patch needs to know of a type, derived from its shape: the fields whose lists are merged
 * rather than replaced (`x-kubernetes-patch-strategy: merge`, with the `x-kubernetes-patch-merge-key` of lists of
 * objects), and the way down to them. A field not named here has no strategy: its objects are merged key by key and
 * its lists are replaced.
 */
export interface FieldFacts {
  /** 'merge' for lists merged item by item */
  strategy?: 'merge';
  /** the field that identifies an item of a merged list of objects; absent for lists of primitives */
  mergeKey?: string;
  /** the fields of the field's value, or of each item of its list */
  fields?: TypeFacts;
}

export type TypeFacts = Readonly<Record<string, FieldFacts>>;

const derived = new WeakMap<StructSchema, TypeFacts>();

/** The facts of a struct: its fields (as JSON has them) that have a strategy or one below them. */
export function typeFacts(type: StructSchema): TypeFacts {
  let facts = derived.get(type);
  if (!facts) {
    const found: Record<string, FieldFacts> = {};
    derived.set(type, found); // before its fields: a type may contain itself
    for (const [name, field] of Object.entries(type.jsonFields)) {
      const value = field.schema.type === 'list' ? field.schema.items : field.schema;
      const below = value.type === 'struct' ? typeFacts(value) : {};
      const hasBelow = Object.keys(below).length > 0;
      if (!field.patchStrategy && !hasBelow) continue;
      found[name] = {
        ...(field.patchStrategy && { strategy: field.patchStrategy, mergeKey: field.patchMergeKey }),
        ...(hasBelow && { fields: below }),
      };
    }
    facts = found;
  }
  return facts;
}
