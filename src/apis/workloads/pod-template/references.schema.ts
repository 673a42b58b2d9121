import { CORE_V1 } from './core-v1';
import { atomicStruct, described, required, s } from '../../../apimachinery/schema/schema';

export /** The references the container and volume types share. */
const LOCAL_OBJECT_REFERENCE = atomicStruct(
  CORE_V1.struct('LocalObjectReference', {
    name: [1, s.string, described('Name of the referenced object, in the same namespace.')],
  }),
);

export const OBJECT_FIELD_SELECTOR = atomicStruct(
  CORE_V1.struct('ObjectFieldSelector', {
    apiVersion: [1, s.string, described('Version of the schema fieldPath is written in; v1 by default.')],
    fieldPath: [2, s.string, required, described('Path of the pod field to read, such as metadata.name.')],
  }),
);

export const RESOURCE_FIELD_SELECTOR = atomicStruct(
  CORE_V1.struct('ResourceFieldSelector', {
    containerName: [1, s.string, described('Container whose resources are read; required in volumes.')],
    resource: [2, s.string, required, described('Resource to read, such as limits.cpu or requests.memory.')],
    divisor: [3, s.quantity, described('Unit the value is written in; 1 by default.')],
  }),
);

/** A reference to an object of any kind (a ServiceAccount's secrets, an Event's subject). */
export const OBJECT_REFERENCE = atomicStruct(
  CORE_V1.struct('ObjectReference', {
    kind: [1, s.string, described('Kind of the referenced object.')],
    namespace: [2, s.string, described('Namespace of the referenced object.')],
    name: [3, s.string, described('Name of the referenced object.')],
    uid: [4, s.string, described('UID of the referenced object.')],
    apiVersion: [5, s.string, described('API version of the referenced object.')],
    resourceVersion: [6, s.string, described('Version of the referenced object the reference was made from.')],
    fieldPath: [7, s.string, described('Part of the referenced object meant, such as spec.containers{name}.')],
  }),
);
