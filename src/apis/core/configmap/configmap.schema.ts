import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { described, pointer, s } from '../../../apimachinery/schema/schema';
import { CORE_V1 } from '../../workloads/pod-template/core-v1';

export const CONFIG_MAP = resourceKind(CORE_V1, 'ConfigMap', {
  immutable: [4, s.boolean, pointer, described('If true, data and binaryData cannot be changed (only metadata can); once set it cannot be unset.')],
  data: [2, s.stringMap, described('Configuration data as UTF-8 strings, by key (alphanumerics, `-`, `_` or `.`).')],
  binaryData: [3, s.map(s.bytes), described('Configuration data as bytes (base64 in JSON), by key; its keys may not repeat those of data.')],
});

export type ConfigMap = KindObject<typeof CONFIG_MAP>;
