import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { described, pointer, s } from '../../../apimachinery/schema/schema';
import { CORE_V1 } from '../../workloads/pod-template/core-v1';

export const SECRET = resourceKind(CORE_V1, 'Secret', {
  immutable: [5, s.boolean, pointer, described('If true, data cannot be changed (only metadata can); once set it cannot be unset.')],
  data: [2, s.map(s.bytes), described('Secret data as bytes (base64 in JSON), by key (alphanumerics, `-`, `_` or `.`); at most 1 MiB in all.')],
  stringData: [4, s.stringMap, described('Write-only convenience: string values merged into data on write (they win over its keys); never read back.')],
  type: [3, s.string, described('How the data is used, which decides the keys it must hold: Opaque by default, kubernetes.io/tls, kubernetes.io/dockerconfigjson, ...')],
});

export type Secret = KindObject<typeof SECRET>;
