import { alwaysWritten, atomic, atomicStruct, FieldSpecs, mergedBy, pointer, required, s, struct, StructSchema } from '../schema/schema';
import { TypeOf } from '../schema/type-of';
import { ObjectMeta } from './kube-object';
import { GoPackage } from '../schema/go-packages';
import { LIST_META, META_V1, STATUS } from './meta-messages.schema';

export const OWNER_REFERENCE = atomicStruct(
  META_V1.struct('OwnerReference', {
    apiVersion: [5, s.string, alwaysWritten],
    kind: [1, s.string, alwaysWritten],
    name: [3, s.string, alwaysWritten],
    uid: [4, s.string, alwaysWritten],
    controller: [6, s.boolean, pointer],
    blockOwnerDeletion: [7, s.boolean, pointer],
  }),
);

export const INITIALIZER = META_V1.struct('Initializer', {
  name: [1, s.string, alwaysWritten],
});

export const INITIALIZERS = META_V1.struct('Initializers', {
  pending: [1, s.list(INITIALIZER), alwaysWritten],
  result: [2, STATUS],
});

/**
 * One field manager's fields (server-side apply): who, by which operation, in which version, when, and the fields as
 * a FieldsV1 tree, which JSON writes as an object and protobuf as its JSON text.
 */
export const MANAGED_FIELDS_ENTRY = META_V1.struct('ManagedFieldsEntry', {
  manager: [1, s.string],
  operation: [2, s.string],
  apiVersion: [3, s.string],
  time: [4, s.time],
  fieldsType: [6, s.string],
  fieldsV1: [7, s.fieldsV1],
  subresource: [8, s.string],
});

/** ObjectMeta as the Go type declares it, in its field order. */
export const OBJECT_META = META_V1.struct('ObjectMeta', {
  name: [1, s.string],
  generateName: [2, s.string],
  namespace: [3, s.string],
  selfLink: [4, s.string],
  uid: [5, s.string],
  resourceVersion: [6, s.string],
  generation: [7, s.int64],
  creationTimestamp: [8, s.time],
  deletionTimestamp: [9, s.time],
  deletionGracePeriodSeconds: [10, s.int64, pointer],
  labels: [11, s.stringMap],
  annotations: [12, s.stringMap],
  ownerReferences: [13, s.list(OWNER_REFERENCE), mergedBy('uid')],
  initializers: [16, INITIALIZERS],
  finalizers: [14, s.stringList, mergedBy()],
  clusterName: [15, s.string],
  // kept when empty until the field manager reads it: a write's empty list resets them, and the manager stores none
  managedFields: [17, s.list(MANAGED_FIELDS_ENTRY), atomic, alwaysWritten],
});

/**
 * A kind served as a resource: its struct, with ObjectMeta as field 1, and its list (`<Kind>List`: ListMeta and the
 * items), as every Kubernetes kind has them.
 */
export function resourceKind<const Specs extends FieldSpecs>(pkg: GoPackage, name: string, specs: Specs) {
  const kind = pkg.struct(name, { metadata: [1, OBJECT_META], ...specs });
  lists.set(kind, pkg.struct(`${name}List`, { metadata: [1, LIST_META], items: [2, s.list(kind), required] }));
  return kind;
}

/**
 * A kind a stored definition declares at run time, with the OpenAPI schema it declares: ObjectMeta, and whatever
 * else its objects carry kept as sent. It stays out of the package catalogue (its objects have no protobuf form,
 * and it goes when its definition goes).
 */
export function definedKind(pkg: string, name: string, declared: Readonly<Record<string, unknown>>): StructSchema {
  const kind: StructSchema = { ...struct(pkg, name, { metadata: [1, OBJECT_META] }), declared };
  lists.set(kind, struct(pkg, `${name}List`, { metadata: [1, LIST_META], items: [2, s.list(kind), required] }));
  return kind;
}

const lists = new WeakMap<StructSchema, StructSchema>();

/** The list type of a kind declared with resourceKind. */
export const listOf = (kind: StructSchema): StructSchema | undefined => lists.get(kind);

/**
 * An object of a kind declared with resourceKind, as the server handles it: the kind's JSON, its kind and apiVersion,
 * and the metadata every stored or decoded object has (also a KubeObject's, so that the generic store takes it).
 */
export type KindObject<Kind extends StructSchema> = TypeOf<Kind> & {
  kind?: string;
  apiVersion?: string;
  metadata: ObjectMeta;
};
