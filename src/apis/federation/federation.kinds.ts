import { defineKind } from '../../registry/define-kind';
import { KindDefinition } from '../../registry/kind-definition';
import { CLUSTER_STRATEGY } from './cluster/cluster.strategy';
import { FEDERATION } from './federation.group';

/** The federation Cluster: its status can only be replaced. */
export const FEDERATION_KINDS: KindDefinition[] = [
  defineKind(FEDERATION, {
    resource: 'clusters',
    kind: 'Cluster',
    namespaced: false,
    subresources: [{ name: 'status', kind: 'Cluster', verbs: ['update'], status: true }],
    strategy: CLUSTER_STRATEGY,
  }),
];
