import { goPackage } from '../../apimachinery/schema/go-packages';

export const POLICY_V1BETA1 = { group: 'policy', version: 'v1beta1', legacyDiscovery: false };

/** The protobuf package of its types. */
export const POLICY_V1BETA1_TYPES = goPackage('k8s.io.api.policy.v1beta1', 'policy/v1beta1');
