import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';
import { described, s } from '../../../apimachinery/schema/schema';

const API_VERSION = EXTENSIONS_V1BETA1.struct('APIVersion', {
  name: [1, s.string, described('Name of the version.')],
});

export const THIRD_PARTY_RESOURCE = resourceKind(EXTENSIONS_V1BETA1, 'ThirdPartyResource', {
  description: [2, s.string, described('Free text about the resource.')],
  versions: [3, s.list(API_VERSION), described('Versions the resource is served in.')],
});

export type ThirdPartyResource = KindObject<typeof THIRD_PARTY_RESOURCE>;

/** An object of a ThirdPartyResource's API as 1.7 declares it (its data APIs are served in JSON only). */
resourceKind(EXTENSIONS_V1BETA1, 'ThirdPartyResourceData', {
  data: [2, s.bytes, described('The object, as bytes (base64 in JSON).')],
});
