import { goPackage } from '../../../apimachinery/schema/go-packages';
import { s } from '../../../apimachinery/schema/schema';

/**
 * The messages that only the protobuf form has: the envelope, and the wire form of the values JSON writes as a
 * single value (a time, an int-or-string, a quantity, an embedded object); json-mapping.ts converts between the two.
 */
const RUNTIME = goPackage('k8s.io.apimachinery.pkg.runtime');
const META_V1 = goPackage('k8s.io.apimachinery.pkg.apis.meta.v1');

export const TYPE_META = RUNTIME.struct('TypeMeta', {
  apiVersion: [1, s.string],
  kind: [2, s.string],
});

/** The envelope of every protobuf body: the object's apiVersion and kind, and its own message as bytes. */
export const UNKNOWN = RUNTIME.struct('Unknown', {
  typeMeta: [1, TYPE_META],
  raw: [2, s.bytes],
  contentEncoding: [3, s.string],
  contentType: [4, s.string],
});

export const RAW_EXTENSION = RUNTIME.struct('RawExtension', {
  raw: [1, s.bytes],
});

/** A FieldsV1 set: its JSON text. */
export const FIELDS_V1 = META_V1.struct('FieldsV1', {
  Raw: [1, s.bytes],
});

export const TIME = META_V1.struct('Time', {
  seconds: [1, s.int64],
  nanos: [2, s.int32],
});

export const MICRO_TIME = META_V1.struct('MicroTime', {
  seconds: [1, s.int64],
  nanos: [2, s.int32],
});

export const INT_OR_STRING = goPackage('k8s.io.apimachinery.pkg.util.intstr').struct('IntOrString', {
  type: [1, s.int64],
  intVal: [2, s.int32],
  strVal: [3, s.string],
});

export const QUANTITY = goPackage('k8s.io.apimachinery.pkg.api.resource').struct('Quantity', {
  string: [1, s.string],
});
