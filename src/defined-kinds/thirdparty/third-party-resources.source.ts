import { KubeObject } from '../../apimachinery/meta/kube-object';
import { defineKind } from '../../registry/define-kind';
import { KindDefinition, WireForm } from '../../registry/kind-definition';
import { DefinitionSource } from '../definition-source';
import { definedObjectStrategy, SCHEMALESS } from '../defined-object-strategy';
import { thirdPartyNames } from './third-party-names';
import { ThirdPartyResource } from '../../apis/extensions/thirdpartyresource/thirdpartyresource.schema';

/**
 * How 1.7 served ThirdPartyResource data: JSON alone, no strategic merge patch, lists written
 * kind, items, metadata, apiVersion with items that carry their kind, and no watch cache (a too-old watch is
 * told `Expired`, as etcd's compaction error).
 */
const THIRD_PARTY_WIRE: WireForm = {
  mediaTypes: ['application/json'],
  strategicMerge: false,
  listMembers: ['kind', 'items', 'metadata', 'apiVersion'],
  itemTypeMeta: true,
  tooOldWatchReason: 'Expired',
};

/**
 * ThirdPartyResources as definitions: each serves one namespaced resource in the first of its versions, with every
 * verb and no subresources.
 */
export const THIRD_PARTY_RESOURCES: DefinitionSource = {
  stored: { group: 'extensions', version: 'v1beta1', resource: 'thirdpartyresources' },
  kindsOf(definition: KubeObject): KindDefinition[] {
    const names = thirdPartyNames(definition.metadata.name ?? '');
    const version = (definition as ThirdPartyResource).versions?.[0]?.name;
    if (!names || !version) return [];
    return [
      defineKind(
        { group: names.group, version },
        {
          resource: names.plural,
          kind: names.kind,
          namespaced: true,
          strategy: definedObjectStrategy({ group: names.group, version, kind: names.kind, schema: SCHEMALESS, generation: 'client' }),
          wire: THIRD_PARTY_WIRE,
        },
      ),
    ];
  },
};
