import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { LABEL_SELECTOR } from '../../../apimachinery/selectors/label-selector-object';
import { POD_TEMPLATE_SPEC } from '../../workloads/pod-template/pod-template.schema';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';
import { pointer, required, s } from '../../../apimachinery/schema/schema';

const ROLLING_UPDATE_DAEMON_SET = EXTENSIONS_V1BETA1.struct('RollingUpdateDaemonSet', {
  maxUnavailable: [1, s.intOrString],
});

const DAEMON_SET_UPDATE_STRATEGY = EXTENSIONS_V1BETA1.struct('DaemonSetUpdateStrategy', {
  type: [1, s.string],
  rollingUpdate: [2, ROLLING_UPDATE_DAEMON_SET],
});

const DAEMON_SET_SPEC = EXTENSIONS_V1BETA1.struct('DaemonSetSpec', {
  selector: [1, LABEL_SELECTOR],
  template: [2, POD_TEMPLATE_SPEC, required],
  updateStrategy: [3, DAEMON_SET_UPDATE_STRATEGY],
  minReadySeconds: [4, s.int32],
  templateGeneration: [5, s.int64],
  revisionHistoryLimit: [6, s.int32, pointer],
});

const DAEMON_SET_STATUS = EXTENSIONS_V1BETA1.struct('DaemonSetStatus', {
  currentNumberScheduled: [1, s.int32, required],
  numberMisscheduled: [2, s.int32, required],
  desiredNumberScheduled: [3, s.int32, required],
  numberReady: [4, s.int32, required],
  observedGeneration: [5, s.int64],
  updatedNumberScheduled: [6, s.int32],
  numberAvailable: [7, s.int32],
  numberUnavailable: [8, s.int32],
  collisionCount: [9, s.int64, pointer],
});

export const DAEMON_SET = resourceKind(EXTENSIONS_V1BETA1, 'DaemonSet', {
  spec: [2, DAEMON_SET_SPEC],
  status: [3, DAEMON_SET_STATUS],
});

export type DaemonSet = KindObject<typeof DAEMON_SET>;
