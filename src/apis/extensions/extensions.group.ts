import { goPackage } from '../../apimachinery/schema/go-packages';

/** The extensions/v1beta1 API group; 1.7 leaves `apiVersion` out of its discovery documents. */
export const EXTENSIONS = { group: 'extensions', version: 'v1beta1', legacyDiscovery: true };

/** The protobuf package of its types. */
export const EXTENSIONS_V1BETA1 = goPackage('k8s.io.api.extensions.v1beta1', 'extensions/v1beta1');
