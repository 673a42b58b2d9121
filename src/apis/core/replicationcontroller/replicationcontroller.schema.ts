import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { CORE_V1 } from '../../workloads/pod-template/core-v1';
import { POD_TEMPLATE_SPEC } from '../../workloads/pod-template/pod-template.schema';
import { atomic, described, mergedBy, pointer, required, s } from '../../../apimachinery/schema/schema';

const REPLICATION_CONTROLLER_SPEC = CORE_V1.struct('ReplicationControllerSpec', {
  replicas: [1, s.int32, pointer, described('Number of pods the controller keeps running; 1 by default.')],
  minReadySeconds: [4, s.int32, described('Seconds a new pod must stay ready to count as available.')],
  selector: [2, s.stringMap, atomic, described('Labels a pod must carry to be counted by this controller; those of the template by default.')],
  template: [3, POD_TEMPLATE_SPEC, described('Template new pods are made from.')],
});

const REPLICATION_CONTROLLER_CONDITION = CORE_V1.struct('ReplicationControllerCondition', {
  type: [1, s.string, required, described('Type of the condition, such as ReplicaFailure.')],
  status: [2, s.string, required, described('Whether the condition holds: True, False or Unknown.')],
  lastTransitionTime: [3, s.time, described('When the status of the condition last changed.')],
  reason: [4, s.string, described('Machine-readable reason for the last change, in CamelCase.')],
  message: [5, s.string, described('Human-readable details of the last change.')],
});

const REPLICATION_CONTROLLER_STATUS = CORE_V1.struct('ReplicationControllerStatus', {
  replicas: [1, s.int32, required, described('Number of pods observed.')],
  fullyLabeledReplicas: [2, s.int32, described('Number of pods whose labels match those of the template.')],
  readyReplicas: [4, s.int32, described('Number of ready pods.')],
  availableReplicas: [5, s.int32, described('Number of pods ready for at least minReadySeconds.')],
  observedGeneration: [3, s.int64, described('Generation of the object the controller last acted on.')],
  conditions: [6, s.list(REPLICATION_CONTROLLER_CONDITION), mergedBy('type'), described('Latest observations of the state of the controller.')],
});

export const REPLICATION_CONTROLLER = resourceKind(CORE_V1, 'ReplicationController', {
  spec: [2, REPLICATION_CONTROLLER_SPEC, described('Desired state: how many pods, of which template.')],
  status: [3, REPLICATION_CONTROLLER_STATUS, described('Observed state, written by the controller.')],
});

export type ReplicationController = KindObject<typeof REPLICATION_CONTROLLER>;
