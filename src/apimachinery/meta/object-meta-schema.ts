import { alwaysWritten, atomic, atomicStruct, described, FieldSpecs, mergedBy, pointer, required, s, struct, StructSchema } from '../schema/schema';
import { TypeOf } from '../schema/type-of';
import { ObjectMeta } from './kube-object';
import { GoPackage } from '../schema/go-packages';
import { LIST_META, META_V1, STATUS } from './meta-messages.schema';

export const OWNER_REFERENCE = atomicStruct(
  META_V1.struct('OwnerReference', {
    apiVersion: [5, s.string, alwaysWritten, described('API version of the owner.')],
    kind: [1, s.string, alwaysWritten, described('Kind of the owner.')],
    name: [3, s.string, alwaysWritten, described('Name of the owner.')],
    uid: [4, s.string, alwaysWritten, described('UID of the owner; the reference holds only while it matches.')],
    controller: [6, s.boolean, pointer, described('Whether the owner is the controller that manages this object (at most one is).')],
    blockOwnerDeletion: [7, s.boolean, pointer, described('Whether a foreground deletion of the owner waits until this object is gone.')],
  }),
);

export const INITIALIZER = META_V1.struct('Initializer', {
  name: [1, s.string, alwaysWritten, described('Name of the initializer that still has to act on the object.')],
});

export const INITIALIZERS = META_V1.struct('Initializers', {
  pending: [1, s.list(INITIALIZER), alwaysWritten, described('Initializers yet to act on the object, in order.')],
  result: [2, STATUS, described('Why initialization failed, when it did.')],
});

/**
 * One field manager's fields (server-side apply): who, by which operation, in which version, when, and the fields as
 * a FieldsV1 tree, which JSON writes as an object and protobuf as its JSON text.
 */
export const MANAGED_FIELDS_ENTRY = META_V1.struct('ManagedFieldsEntry', {
  manager: [1, s.string, described('Name of the actor that manages these fields.')],
  operation: [2, s.string, described('How the fields were set: Apply or Update.')],
  apiVersion: [3, s.string, described('API version the set of fields is written in.')],
  time: [4, s.time, described('When the manager last changed these fields.')],
  fieldsType: [6, s.string, described('Format of the set of fields: FieldsV1.')],
  fieldsV1: [7, s.fieldsV1, described('The fields this manager owns.')],
  subresource: [8, s.string, described('Subresource the change was made through; empty for the object itself.')],
});

/** ObjectMeta as the Go type declares it, in its field order. */
export const OBJECT_META = META_V1.struct('ObjectMeta', {
  name: [1, s.string, described('Name of the object, unique in its namespace (in the cluster for cluster-wide kinds).')],
  generateName: [2, s.string, described('Prefix from which the server makes a unique name when none is given.')],
  namespace: [3, s.string, described('Namespace the object lives in; empty for cluster-wide kinds.')],
  selfLink: [4, s.string, described('URL path of the object, set by the server.')],
  uid: [5, s.string, described('Identifier the server gives the object when it is created, unique over time.')],
  resourceVersion: [6, s.string, described('Opaque version of the object, changed by every write; for optimistic concurrency and watches.')],
  generation: [7, s.int64, described('Counter of changes to the desired state, set by the server.')],
  creationTimestamp: [8, s.time, described('When the object was created, set by the server.')],
  deletionTimestamp: [9, s.time, described('When the object is to be gone, set by the server once its deletion is asked for.')],
  deletionGracePeriodSeconds: [10, s.int64, pointer, described('Seconds the object was given to terminate when its deletion was asked for.')],
  labels: [11, s.stringMap, described('Key-value pairs that selectors match, to group and select objects.')],
  annotations: [12, s.stringMap, described('Key-value pairs for tools and people; selectors do not match them.')],
  ownerReferences: [13, s.list(OWNER_REFERENCE), mergedBy('uid'), described('Objects this one depends on; when all are gone, it is collected as garbage.')],
  initializers: [16, INITIALIZERS, described('Initializers yet to act on the object (alpha).')],
  finalizers: [14, s.stringList, mergedBy(), described('Names of the finalizers that must be removed before the deleted object goes away.')],
  clusterName: [15, s.string, described('Name of the cluster the object belongs to, kept as given.')],
  // kept when empty until the field manager reads it: a write's empty list resets them, and the manager stores none
  managedFields: [17, s.list(MANAGED_FIELDS_ENTRY), atomic, alwaysWritten, described('Which manager owns which fields (server-side apply).')],
});

const OBJECT_METADATA = described('Standard object metadata: name, namespace, labels, annotations and the like.');

/** The fields of a kind's list: its metadata and its items. */
const listFields = (name: string, kind: StructSchema) =>
  ({
    metadata: [1, LIST_META, described('Standard list metadata: the resourceVersion the list was read at.')],
    items: [2, s.list(kind), required, described(`The ${name} objects.`)],
  }) as const;

/**
 * A kind served as a resource: its struct, with ObjectMeta as field 1, and its list (`<Kind>List`: ListMeta and the
 * items), as every Kubernetes kind has them.
 */
export function resourceKind<const Specs extends FieldSpecs>(pkg: GoPackage, name: string, specs: Specs) {
  const kind = pkg.struct(name, { metadata: [1, OBJECT_META, OBJECT_METADATA], ...specs });
  lists.set(kind, pkg.struct(`${name}List`, listFields(name, kind)));
  return kind;
}

/**
 * A kind a stored definition declares at run time, with the OpenAPI schema it declares: ObjectMeta, and whatever
 * else its objects carry kept as sent. It stays out of the package catalogue (its objects have no protobuf form,
 * and it goes when its definition goes).
 */
export function definedKind(pkg: string, name: string, declared: Readonly<Record<string, unknown>>): StructSchema {
  const kind: StructSchema = { ...struct(pkg, name, { metadata: [1, OBJECT_META, OBJECT_METADATA] }), declared };
  lists.set(kind, struct(pkg, `${name}List`, listFields(name, kind)));
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
