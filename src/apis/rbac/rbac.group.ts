import { goPackage } from '../../apimachinery/schema/go-packages';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** rbac.authorization.k8s.io/v1, the preferred version, and v1beta1 (served since 1.6); both store the same objects. */
export const RBAC_V1 = { group: RBAC_GROUP, version: 'v1', legacyDiscovery: false };
export const RBAC_V1BETA1 = { group: RBAC_GROUP, version: 'v1beta1', legacyDiscovery: false };

/** The protobuf packages of their types. */
export const RBAC_V1_TYPES = goPackage('k8s.io.api.rbac.v1', `${RBAC_GROUP}/v1`);
export const RBAC_V1BETA1_TYPES = goPackage('k8s.io.api.rbac.v1beta1', `${RBAC_GROUP}/v1beta1`);
