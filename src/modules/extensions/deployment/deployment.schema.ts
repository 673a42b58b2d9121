import { LABEL_SELECTOR_SCHEMA } from '../../../apimachinery/selectors/label-selector-object';
import { s } from '../../../apimachinery/schema/schema';
import { POD_TEMPLATE_SCHEMA } from '../../workloads/pod-template/pod-template.schema';

export const DEPLOYMENT_FIELDS = {
  spec: s.struct('DeploymentSpec', {
    replicas: s.int32,
    selector: LABEL_SELECTOR_SCHEMA,
    template: POD_TEMPLATE_SCHEMA,
    strategy: s.struct('DeploymentStrategy', {
      type: s.string,
      rollingUpdate: s.struct('RollingUpdateDeployment', { maxUnavailable: s.intOrString, maxSurge: s.intOrString }),
    }),
    minReadySeconds: s.int32,
    revisionHistoryLimit: s.int32,
    paused: s.boolean,
    rollbackTo: s.struct('RollbackConfig', { revision: s.int64 }),
    progressDeadlineSeconds: s.int32,
  }),
  status: s.struct('DeploymentStatus', {
    observedGeneration: s.int64,
    replicas: s.int32,
    updatedReplicas: s.int32,
    readyReplicas: s.int32,
    availableReplicas: s.int32,
    unavailableReplicas: s.int32,
    conditions: s.list(
      s.struct('DeploymentCondition', {
        type: s.string,
        status: s.string,
        lastUpdateTime: s.time,
        lastTransitionTime: s.time,
        reason: s.string,
        message: s.string,
      }),
    ),
    collisionCount: s.int64,
  }),
};
