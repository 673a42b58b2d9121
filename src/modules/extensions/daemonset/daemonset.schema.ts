import { LABEL_SELECTOR_SCHEMA } from '../../../apimachinery/selectors/label-selector-object';
import { s } from '../../../apimachinery/schema/schema';
import { POD_TEMPLATE_SCHEMA } from '../../workloads/pod-template/pod-template.schema';

export const DAEMON_SET_FIELDS = {
  spec: s.struct('DaemonSetSpec', {
    selector: LABEL_SELECTOR_SCHEMA,
    template: POD_TEMPLATE_SCHEMA,
    updateStrategy: s.struct('DaemonSetUpdateStrategy', {
      type: s.string,
      rollingUpdate: s.struct('RollingUpdateDaemonSet', { maxUnavailable: s.intOrString }),
    }),
    minReadySeconds: s.int32,
    templateGeneration: s.int64,
    revisionHistoryLimit: s.int32,
  }),
  status: s.struct('DaemonSetStatus', {
    currentNumberScheduled: s.int32,
    numberMisscheduled: s.int32,
    desiredNumberScheduled: s.int32,
    numberReady: s.int32,
    observedGeneration: s.int64,
    updatedNumberScheduled: s.int32,
    numberAvailable: s.int32,
    numberUnavailable: s.int32,
    collisionCount: s.int64,
  }),
};
