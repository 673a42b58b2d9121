import { goPackage } from '../../apimachinery/schema/go-packages';

export const FEDERATION = { group: 'federation', version: 'v1beta1', legacyDiscovery: false };

/** The protobuf package of its types. */
export const FEDERATION_V1BETA1 = goPackage('k8s.io.kubernetes.federation.apis.federation.v1beta1', 'federation/v1beta1');
