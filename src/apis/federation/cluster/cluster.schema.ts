import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { LOCAL_OBJECT_REFERENCE } from '../../workloads/pod-template/references.schema';
import { FEDERATION_V1BETA1 } from '../federation.group';
import { described, mergedBy, required, s } from '../../../apimachinery/schema/schema';

const CLUSTER_SERVER_ADDRESS = FEDERATION_V1BETA1.struct('ServerAddressByClientCIDR', {
  clientCIDR: [1, s.string, required, described('Network of the clients that use this address.')],
  serverAddress: [2, s.string, required, described('Address (host or host:port) at which those clients reach the server.')],
});

const CLUSTER_SPEC = FEDERATION_V1BETA1.struct('ClusterSpec', {
  serverAddressByClientCIDRs: [1, s.list(CLUSTER_SERVER_ADDRESS), mergedBy('clientCIDR'), required, described('Its API server addresses, by client network.')],
  secretRef: [2, LOCAL_OBJECT_REFERENCE, described('Secret holding the credentials to reach the cluster.')],
});

const CLUSTER_CONDITION = FEDERATION_V1BETA1.struct('ClusterCondition', {
  type: [1, s.string, required, described('Type of the condition, such as Ready or OfflineCluster.')],
  status: [2, s.string, required, described('Whether the condition holds: True, False or Unknown.')],
  lastProbeTime: [3, s.time, described('When the condition was last probed.')],
  lastTransitionTime: [4, s.time, described('When the status of the condition last changed.')],
  reason: [5, s.string, described('Machine-readable reason for the last change, in CamelCase.')],
  message: [6, s.string, described('Human-readable details of the last change.')],
});

const CLUSTER_STATUS = FEDERATION_V1BETA1.struct('ClusterStatus', {
  conditions: [1, s.list(CLUSTER_CONDITION), described('Latest observations of the state of the cluster.')],
  zones: [5, s.stringList, described('Availability zones the nodes of the cluster are in.')],
  region: [6, s.string, described('Region the nodes of the cluster are in.')],
});

export const CLUSTER = resourceKind(FEDERATION_V1BETA1, 'Cluster', {
  spec: [2, CLUSTER_SPEC, described('How to reach the cluster.')],
  status: [3, CLUSTER_STATUS, described('Observed state of the cluster.')],
});

export type Cluster = KindObject<typeof CLUSTER>;
