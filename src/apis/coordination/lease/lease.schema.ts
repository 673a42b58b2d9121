import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { described, pointer, s } from '../../../apimachinery/schema/schema';
import { COORDINATION_V1_TYPES } from '../coordination.group';

const LEASE_SPEC = COORDINATION_V1_TYPES.struct('LeaseSpec', {
  holderIdentity: [1, s.string, pointer, described('Identity of the current holder of the lease.')],
  leaseDurationSeconds: [2, s.int32, pointer, described('Seconds candidates wait after the last renewTime before they may take the lease.')],
  acquireTime: [3, s.microTime, pointer, described('When the current holder acquired the lease.')],
  renewTime: [4, s.microTime, pointer, described('When the current holder last renewed the lease.')],
  leaseTransitions: [5, s.int32, pointer, described('Number of times the lease changed holders.')],
  strategy: [6, s.string, pointer, described('How the leader is picked in coordinated leader election; none: no coordination.')],
  preferredHolder: [7, s.string, pointer, described('The holder the lease should go to, which the holder should give it up to; only with a strategy.')],
});

export const LEASE = resourceKind(COORDINATION_V1_TYPES, 'Lease', {
  spec: [2, LEASE_SPEC, described('Who holds the lease and for how long.')],
});

export type Lease = KindObject<typeof LEASE>;
