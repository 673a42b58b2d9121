import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { LABEL_SELECTOR } from '../../../apimachinery/selectors/label-selector-object';
import { POD_TEMPLATE_SPEC } from '../../workloads/pod-template/pod-template.schema';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';
import { mergedBy, pointer, required, s } from '../../../apimachinery/schema/schema';

const REPLICA_SET_SPEC = EXTENSIONS_V1BETA1.struct('ReplicaSetSpec', {
  replicas: [1, s.int32, pointer],
  minReadySeconds: [4, s.int32],
  selector: [2, LABEL_SELECTOR],
  template: [3, POD_TEMPLATE_SPEC],
});

const REPLICA_SET_CONDITION = EXTENSIONS_V1BETA1.struct('ReplicaSetCondition', {
  type: [1, s.string, required],
  status: [2, s.string, required],
  lastTransitionTime: [3, s.time],
  reason: [4, s.string],
  message: [5, s.string],
});

const REPLICA_SET_STATUS = EXTENSIONS_V1BETA1.struct('ReplicaSetStatus', {
  replicas: [1, s.int32, required],
  fullyLabeledReplicas: [2, s.int32],
  readyReplicas: [4, s.int32],
  availableReplicas: [5, s.int32],
  observedGeneration: [3, s.int64],
  conditions: [6, s.list(REPLICA_SET_CONDITION), mergedBy('type')],
});

export const REPLICA_SET = resourceKind(EXTENSIONS_V1BETA1, 'ReplicaSet', {
  spec: [2, REPLICA_SET_SPEC],
  status: [3, REPLICA_SET_STATUS],
});

export type ReplicaSet = KindObject<typeof REPLICA_SET>;
