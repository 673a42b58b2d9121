import { Field as ProtoField, MapField, Root, Type } from 'protobufjs';
import { API_GROUP, API_GROUP_LIST, API_RESOURCE_LIST, API_VERSIONS, DELETE_OPTIONS, STATUS } from '../../../apimachinery/meta/meta-messages.schema';
import { catalogueRevision, goPackages, servedType } from '../../../apimachinery/schema/go-packages';
import { Field, LeafType, Schema, StructSchema } from '../../../apimachinery/schema/schema';
import { FIELDS_V1, INT_OR_STRING, MICRO_TIME, QUANTITY, RAW_EXTENSION, TIME } from './wire-messages';

/** The protobuf type of each leaf: a scalar, or the message of a value JSON writes as one value. */
const LEAF_TYPES: Record<LeafType, string | StructSchema> = {
  string: 'string',
  boolean: 'bool',
  int32: 'int32',
  int64: 'int64',
  bytes: 'bytes',
  intOrString: INT_OR_STRING,
  quantity: QUANTITY,
  time: TIME,
  microTime: MICRO_TIME,
  fieldsV1: FIELDS_V1,
  any: RAW_EXTENSION,
};

/** The meta kinds that travel as objects of their own, in any group version. */
const META_KINDS = new Map([STATUS, DELETE_OPTIONS, API_VERSIONS, API_GROUP_LIST, API_GROUP, API_RESOURCE_LIST].map((type) => [type.name, type]));

const fullName = (type: StructSchema) => `${type.package}.${type.name}`;

function protoTypeName(schema: Schema): string {
  if (schema.type === 'list' || schema.type === 'map') throw new Error('protobuf has no list or map of lists or maps');
  const type = schema.type === 'struct' ? schema : LEAF_TYPES[schema.type];
  return typeof type === 'string' ? type : `.${fullName(type)}`;
}

function protoField(name: string, { number, schema }: Field): ProtoField | MapField {
  if (schema.type === 'list') return new ProtoField(name, number, protoTypeName(schema.items), 'repeated');
  if (schema.type === 'map') return new MapField(name, number, 'string', protoTypeName(schema.values));
  return new ProtoField(name, number, protoTypeName(schema));
}

interface Messages {
  root: Root;
  /** the full names of the fields of embedded Go structs, whose JSON joins the enclosing object */
  inlineFields: Set<string>;
  revision: number;
}

let messages: Messages | undefined;

/** The messages of every declared type, derived once (and again when more types are declared, as a test does). */
function derivedMessages(): Messages {
  if (messages?.revision !== catalogueRevision()) {
    const root = new Root();
    const inlineFields = new Set<string>();
    for (const pkg of goPackages()) {
      const namespace = root.define(pkg.name);
      for (const type of pkg.types.values()) {
        const message = new Type(type.name);
        for (const [name, field] of Object.entries(type.fields)) {
          message.add(protoField(name, field));
          if (field.inline) inlineFields.add(`${fullName(type)}.${name}`);
        }
        namespace.add(message);
      }
    }
    root.resolveAll();
    messages = { root, inlineFields, revision: catalogueRevision() };
  }
  return messages;
}

/** A message by its full name, e.g. `k8s.io.apimachinery.pkg.runtime.Unknown`. */
export function messageType(name: string): Type {
  return derivedMessages().root.lookupType(name);
}

/** True for a field (by full name) whose Go struct is embedded: JSON writes its fields into the enclosing object. */
export function isInlineField(name: string): boolean {
  return derivedMessages().inlineFields.has(name);
}

/**
 * The message of a kind: a type of the package served as its group version, then among the meta kinds. Without an
 * apiVersion (the extensions discovery documents have none) every served package is searched.
 */
export function kindMessageType(apiVersion: string | undefined, kind: string): Type | undefined {
  const type = servedType(apiVersion, kind) ?? META_KINDS.get(kind);
  return type && messageType(fullName(type));
}
