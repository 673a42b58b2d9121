import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { LOCAL_OBJECT_REFERENCE } from '../../workloads/pod-template/references.schema';
import { FEDERATION_V1BETA1 } from '../federation.group';
import { mergedBy, required, s } from '../../../apimachinery/schema/schema';

const CLUSTER_SERVER_ADDRESS = FEDERATION_V1BETA1.struct('ServerAddressByClientCIDR', {
  clientCIDR: [1, s.string, required],
  serverAddress: [2, s.string, required],
});

const CLUSTER_SPEC = FEDERATION_V1BETA1.struct('ClusterSpec', {
  serverAddressByClientCIDRs: [1, s.list(CLUSTER_SERVER_ADDRESS), mergedBy('clientCIDR'), required],
  secretRef: [2, LOCAL_OBJECT_REFERENCE],
});

const CLUSTER_CONDITION = FEDERATION_V1BETA1.struct('ClusterCondition', {
  type: [1, s.string, required],
  status: [2, s.string, required],
  lastProbeTime: [3, s.time],
  lastTransitionTime: [4, s.time],
  reason: [5, s.string],
  message: [6, s.string],
});

const CLUSTER_STATUS = FEDERATION_V1BETA1.struct('ClusterStatus', {
  conditions: [1, s.list(CLUSTER_CONDITION)],
  zones: [5, s.stringList],
  region: [6, s.string],
});

export const CLUSTER = resourceKind(FEDERATION_V1BETA1, 'Cluster', {
  spec: [2, CLUSTER_SPEC],
  status: [3, CLUSTER_STATUS],
});

export type Cluster = KindObject<typeof CLUSTER>;
