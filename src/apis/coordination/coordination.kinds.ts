import { defineKind } from '../../registry/define-kind';
import { KindDefinition } from '../../registry/kind-definition';
import { COORDINATION_V1 } from './coordination.group';
import { LEASE_COLUMNS } from './lease/lease.columns';
import { LEASE_STRATEGY } from './lease/lease.strategy';

export const COORDINATION_V1_KINDS: KindDefinition[] = [
  defineKind(COORDINATION_V1, { resource: 'leases', kind: 'Lease', namespaced: true, strategy: LEASE_STRATEGY, columns: LEASE_COLUMNS }),
];
