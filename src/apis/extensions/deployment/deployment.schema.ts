import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { LABEL_SELECTOR } from '../../../apimachinery/selectors/label-selector-object';
import { POD_TEMPLATE_SPEC } from '../../workloads/pod-template/pod-template.schema';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';
import { mergedBy, pointer, required, s } from '../../../apimachinery/schema/schema';

const ROLLING_UPDATE_DEPLOYMENT = EXTENSIONS_V1BETA1.struct('RollingUpdateDeployment', {
  maxUnavailable: [1, s.intOrString],
  maxSurge: [2, s.intOrString],
});

export const DEPLOYMENT_STRATEGY = EXTENSIONS_V1BETA1.struct('DeploymentStrategy', {
  type: [1, s.string],
  rollingUpdate: [2, ROLLING_UPDATE_DEPLOYMENT],
});

const ROLLBACK_CONFIG = EXTENSIONS_V1BETA1.struct('RollbackConfig', {
  revision: [1, s.int64],
});

const DEPLOYMENT_SPEC = EXTENSIONS_V1BETA1.struct('DeploymentSpec', {
  replicas: [1, s.int32, pointer],
  selector: [2, LABEL_SELECTOR],
  template: [3, POD_TEMPLATE_SPEC, required],
  strategy: [4, DEPLOYMENT_STRATEGY],
  minReadySeconds: [5, s.int32],
  revisionHistoryLimit: [6, s.int32, pointer],
  paused: [7, s.boolean],
  rollbackTo: [8, ROLLBACK_CONFIG],
  progressDeadlineSeconds: [9, s.int32, pointer],
});

const DEPLOYMENT_CONDITION = EXTENSIONS_V1BETA1.struct('DeploymentCondition', {
  type: [1, s.string, required],
  status: [2, s.string, required],
  lastUpdateTime: [6, s.time],
  lastTransitionTime: [7, s.time],
  reason: [4, s.string],
  message: [5, s.string],
});

const DEPLOYMENT_STATUS = EXTENSIONS_V1BETA1.struct('DeploymentStatus', {
  observedGeneration: [1, s.int64],
  replicas: [2, s.int32],
  updatedReplicas: [3, s.int32],
  readyReplicas: [7, s.int32],
  availableReplicas: [4, s.int32],
  unavailableReplicas: [5, s.int32],
  conditions: [6, s.list(DEPLOYMENT_CONDITION), mergedBy('type')],
  collisionCount: [8, s.int64, pointer],
});

export const DEPLOYMENT = resourceKind(EXTENSIONS_V1BETA1, 'Deployment', {
  spec: [2, DEPLOYMENT_SPEC],
  status: [3, DEPLOYMENT_STATUS],
});

export type Deployment = KindObject<typeof DEPLOYMENT>;

export const DEPLOYMENT_ROLLBACK = EXTENSIONS_V1BETA1.struct('DeploymentRollback', {
  name: [1, s.string, required],
  updatedAnnotations: [2, s.stringMap],
  rollbackTo: [3, ROLLBACK_CONFIG, required],
});
