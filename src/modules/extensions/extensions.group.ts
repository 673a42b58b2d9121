/** The extensions/v1beta1 API group; 1.7 leaves `apiVersion` out of its discovery documents. */
export const EXTENSIONS = { group: 'extensions', version: 'v1beta1', legacyDiscovery: true };
