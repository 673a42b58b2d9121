import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { LABEL_SELECTOR } from '../../../apimachinery/selectors/label-selector-object';
import { POD_TEMPLATE_SPEC } from '../../workloads/pod-template/pod-template.schema';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';
import { described, mergedBy, pointer, required, s } from '../../../apimachinery/schema/schema';

const REPLICA_SET_SPEC = EXTENSIONS_V1BETA1.struct('ReplicaSetSpec', {
  replicas: [1, s.int32, pointer, described('Number of pods the controller keeps running; 1 by default.')],
  minReadySeconds: [4, s.int32, described('Seconds a new pod must stay ready to count as available.')],
  selector: [2, LABEL_SELECTOR, described('Labels a pod must carry to be counted by this controller.')],
  template: [3, POD_TEMPLATE_SPEC, described('Template new pods are made from.')],
});

const REPLICA_SET_CONDITION = EXTENSIONS_V1BETA1.struct('ReplicaSetCondition', {
  type: [1, s.string, required, described('Type of the condition, such as ReplicaFailure.')],
  status: [2, s.string, required, described('Whether the condition holds: True, False or Unknown.')],
  lastTransitionTime: [3, s.time, described('When the status of the condition last changed.')],
  reason: [4, s.string, described('Machine-readable reason for the last change, in CamelCase.')],
  message: [5, s.string, described('Human-readable details of the last change.')],
});

const REPLICA_SET_STATUS = EXTENSIONS_V1BETA1.struct('ReplicaSetStatus', {
  replicas: [1, s.int32, required, described('Number of pods observed.')],
  fullyLabeledReplicas: [2, s.int32, described('Number of pods whose labels match those of the template.')],
  readyReplicas: [4, s.int32, described('Number of ready pods.')],
  availableReplicas: [5, s.int32, described('Number of pods ready for at least minReadySeconds.')],
  observedGeneration: [3, s.int64, described('Generation of the object the controller last acted on.')],
  conditions: [6, s.list(REPLICA_SET_CONDITION), mergedBy('type'), described('Latest observations of the state of the controller.')],
});

export const REPLICA_SET = resourceKind(EXTENSIONS_V1BETA1, 'ReplicaSet', {
  spec: [2, REPLICA_SET_SPEC, described('Desired state: how many pods, of which template.')],
  status: [3, REPLICA_SET_STATUS, described('Observed state, written by the controller.')],
});

export type ReplicaSet = KindObject<typeof REPLICA_SET>;
