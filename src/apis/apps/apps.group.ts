import { goPackage } from '../../apimachinery/schema/go-packages';

/** The apps group's versions, in upstream's order of preference (discovery's preferredVersion is the first). */
export const APPS_V1 = { group: 'apps', version: 'v1', legacyDiscovery: false };
export const APPS_V1BETA2 = { group: 'apps', version: 'v1beta2', legacyDiscovery: false };
export const APPS_V1BETA1 = { group: 'apps', version: 'v1beta1', legacyDiscovery: false };

/** The protobuf packages of their types. */
export const APPS_V1_TYPES = goPackage('k8s.io.api.apps.v1', 'apps/v1');
export const APPS_V1BETA2_TYPES = goPackage('k8s.io.api.apps.v1beta2', 'apps/v1beta2');
export const APPS_V1BETA1_TYPES = goPackage('k8s.io.api.apps.v1beta1', 'apps/v1beta1');
