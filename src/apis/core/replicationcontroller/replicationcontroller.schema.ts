import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { CORE_V1 } from '../../workloads/pod-template/core-v1';
import { POD_TEMPLATE_SPEC } from '../../workloads/pod-template/pod-template.schema';
import { atomic, mergedBy, pointer, required, s } from '../../../apimachinery/schema/schema';

const REPLICATION_CONTROLLER_SPEC = CORE_V1.struct('ReplicationControllerSpec', {
  replicas: [1, s.int32, pointer],
  minReadySeconds: [4, s.int32],
  selector: [2, s.stringMap, atomic],
  template: [3, POD_TEMPLATE_SPEC],
});

const REPLICATION_CONTROLLER_CONDITION = CORE_V1.struct('ReplicationControllerCondition', {
  type: [1, s.string, required],
  status: [2, s.string, required],
  lastTransitionTime: [3, s.time],
  reason: [4, s.string],
  message: [5, s.string],
});

const REPLICATION_CONTROLLER_STATUS = CORE_V1.struct('ReplicationControllerStatus', {
  replicas: [1, s.int32, required],
  fullyLabeledReplicas: [2, s.int32],
  readyReplicas: [4, s.int32],
  availableReplicas: [5, s.int32],
  observedGeneration: [3, s.int64],
  conditions: [6, s.list(REPLICATION_CONTROLLER_CONDITION), mergedBy('type')],
});

export const REPLICATION_CONTROLLER = resourceKind(CORE_V1, 'ReplicationController', {
  spec: [2, REPLICATION_CONTROLLER_SPEC],
  status: [3, REPLICATION_CONTROLLER_STATUS],
});

export type ReplicationController = KindObject<typeof REPLICATION_CONTROLLER>;
