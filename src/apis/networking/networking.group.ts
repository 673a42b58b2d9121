import { goPackage } from '../../apimachinery/schema/go-packages';

export const NETWORKING_V1 = { group: 'networking.k8s.io', version: 'v1', legacyDiscovery: false };

/** The protobuf package of its types. */
export const NETWORKING_V1_TYPES = goPackage('k8s.io.api.networking.v1', 'networking.k8s.io/v1');
