import { goPackage } from '../../apimachinery/schema/go-packages';

export const COORDINATION_V1 = { group: 'coordination.k8s.io', version: 'v1', legacyDiscovery: false };

/** The protobuf package of its types. */
export const COORDINATION_V1_TYPES = goPackage('k8s.io.api.coordination.v1', 'coordination.k8s.io/v1');
