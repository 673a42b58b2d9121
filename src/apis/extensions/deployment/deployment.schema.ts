import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { LABEL_SELECTOR } from '../../../apimachinery/selectors/label-selector-object';
import { POD_TEMPLATE_SPEC } from '../../workloads/pod-template/pod-template.schema';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';
import { described, mergedBy, pointer, required, s } from '../../../apimachinery/schema/schema';

const ROLLING_UPDATE_DEPLOYMENT = EXTENSIONS_V1BETA1.struct('RollingUpdateDeployment', {
  maxUnavailable: [1, s.intOrString, described('Most pods that may be unavailable during the update, as a count or a percentage.')],
  maxSurge: [2, s.intOrString, described('Most pods that may exist beyond the desired count during the update, as a count or a percentage.')],
});

export const DEPLOYMENT_STRATEGY = EXTENSIONS_V1BETA1.struct('DeploymentStrategy', {
  type: [1, s.string, described('How old pods are replaced: RollingUpdate (the default) or Recreate.')],
  rollingUpdate: [2, ROLLING_UPDATE_DEPLOYMENT, described('Parameters of a rolling update.')],
});

const ROLLBACK_CONFIG = EXTENSIONS_V1BETA1.struct('RollbackConfig', {
  revision: [1, s.int64, described('Revision to go back to; 0 means the one before the current.')],
});

const DEPLOYMENT_SPEC = EXTENSIONS_V1BETA1.struct('DeploymentSpec', {
  replicas: [1, s.int32, pointer, described('Number of pods the deployment keeps running; 1 by default.')],
  selector: [2, LABEL_SELECTOR, described('Labels a pod must carry to be counted by this deployment.')],
  template: [3, POD_TEMPLATE_SPEC, required, described('Template the pods are made from.')],
  strategy: [4, DEPLOYMENT_STRATEGY, described('How old pods are replaced by new ones.')],
  minReadySeconds: [5, s.int32, described('Seconds a new pod must stay ready, no container crashing, to count as available.')],
  revisionHistoryLimit: [6, s.int32, pointer, described('Number of old replica sets kept for rollbacks.')],
  paused: [7, s.boolean, described('Whether changes to the template are held back.')],
  rollbackTo: [8, ROLLBACK_CONFIG, described('Revision to roll back to; cleared once done.')],
  progressDeadlineSeconds: [9, s.int32, pointer, described('Seconds without progress after which the deployment is reported as failed.')],
});

const DEPLOYMENT_CONDITION = EXTENSIONS_V1BETA1.struct('DeploymentCondition', {
  type: [1, s.string, required, described('Type of the condition, such as Available or Progressing.')],
  status: [2, s.string, required, described('Whether the condition holds: True, False or Unknown.')],
  lastUpdateTime: [6, s.time, described('When the condition was last updated.')],
  lastTransitionTime: [7, s.time, described('When the status of the condition last changed.')],
  reason: [4, s.string, described('Machine-readable reason for the last change, in CamelCase.')],
  message: [5, s.string, described('Human-readable details of the last change.')],
});

const DEPLOYMENT_STATUS = EXTENSIONS_V1BETA1.struct('DeploymentStatus', {
  observedGeneration: [1, s.int64, described('Generation of the object the controller last acted on.')],
  replicas: [2, s.int32, described('Number of pods of the deployment, old and new.')],
  updatedReplicas: [3, s.int32, described('Number of pods made from the current template.')],
  readyReplicas: [7, s.int32, described('Number of ready pods.')],
  availableReplicas: [4, s.int32, described('Number of pods ready for at least minReadySeconds.')],
  unavailableReplicas: [5, s.int32, described('Number of pods still missing for the deployment to be fully available.')],
  conditions: [6, s.list(DEPLOYMENT_CONDITION), mergedBy('type'), described('Latest observations of the state of the deployment.')],
  collisionCount: [8, s.int64, pointer, described('Number of hash collisions met naming replica sets, used to avoid the next.')],
});

export const DEPLOYMENT = resourceKind(EXTENSIONS_V1BETA1, 'Deployment', {
  spec: [2, DEPLOYMENT_SPEC, described('Desired state of the deployment.')],
  status: [3, DEPLOYMENT_STATUS, described('Observed state of the deployment, written by its controller.')],
});

export type Deployment = KindObject<typeof DEPLOYMENT>;

export const DEPLOYMENT_ROLLBACK = EXTENSIONS_V1BETA1.struct('DeploymentRollback', {
  name: [1, s.string, required, described('Name of the deployment to roll back.')],
  updatedAnnotations: [2, s.stringMap, described('Annotations to set on the deployment along with the rollback.')],
  rollbackTo: [3, ROLLBACK_CONFIG, required, described('Revision to roll back to.')],
});
