import { goPackage } from '../../../apimachinery/schema/go-packages';

/** The protobuf package of the core v1 types: the pod template here, ReplicationController in src/modules/core. */
export const CORE_V1 = goPackage('k8s.io.api.core.v1', 'v1');
