import { CORE_V1 } from './core-v1';
import { atomicStruct, required, s } from '../../../apimachinery/schema/schema';

export /** The references the container and volume types share. */
const LOCAL_OBJECT_REFERENCE = atomicStruct(
  CORE_V1.struct('LocalObjectReference', {
    name: [1, s.string],
  }),
);

export const OBJECT_FIELD_SELECTOR = atomicStruct(
  CORE_V1.struct('ObjectFieldSelector', {
    apiVersion: [1, s.string],
    fieldPath: [2, s.string, required],
  }),
);

export const RESOURCE_FIELD_SELECTOR = atomicStruct(
  CORE_V1.struct('ResourceFieldSelector', {
    containerName: [1, s.string],
    resource: [2, s.string, required],
    divisor: [3, s.quantity],
  }),
);
