import { goPackage } from '../../apimachinery/schema/go-packages';

export const APIEXTENSIONS = { group: 'apiextensions.k8s.io', version: 'v1', legacyDiscovery: false };

/** The protobuf package of its types. */
export const APIEXTENSIONS_V1 = goPackage('k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1', 'apiextensions.k8s.io/v1');

export const APIEXTENSIONS_V1BETA1 = { group: 'apiextensions.k8s.io', version: 'v1beta1', legacyDiscovery: false };
