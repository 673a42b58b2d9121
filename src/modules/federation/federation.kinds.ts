import { defineStrategy, KindDefinition } from '../../common/registry/kind-definition';
import { defineKind } from '../../common/registry/define-kind';
import { nameRules } from '../../common/validation/names';

export const FEDERATION = { group: 'federation', version: 'v1beta1', legacyDiscovery: false };

/** The federation Cluster (reference §12.9): its status can only be replaced, and DELETE returns the object. */
export const FEDERATION_KINDS: KindDefinition[] = [
  defineKind(FEDERATION, {
    resource: 'clusters',
    kind: 'Cluster',
    namespaced: false,
    subresources: [{ name: 'status', kind: 'Cluster', verbs: ['update'] }],
    strategy: defineStrategy({
      nameRule: nameRules.dns1035Label,
      fields: ['spec', 'status'],
      hasStatus: true,
      generation: 'client',
      deleteReturnsObject: true,
    }),
  }),
];
