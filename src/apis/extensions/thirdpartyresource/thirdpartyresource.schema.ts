import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';
import { s } from '../../../apimachinery/schema/schema';

const API_VERSION = EXTENSIONS_V1BETA1.struct('APIVersion', {
  name: [1, s.string],
});

export const THIRD_PARTY_RESOURCE = resourceKind(EXTENSIONS_V1BETA1, 'ThirdPartyResource', {
  description: [2, s.string],
  versions: [3, s.list(API_VERSION)],
});

export type ThirdPartyResource = KindObject<typeof THIRD_PARTY_RESOURCE>;

/** An object of a ThirdPartyResource's API as 1.7 declares it (its data APIs are served in JSON only). */
resourceKind(EXTENSIONS_V1BETA1, 'ThirdPartyResourceData', {
  data: [2, s.bytes],
});
