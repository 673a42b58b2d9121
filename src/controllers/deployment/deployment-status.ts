import { nowTimestamp } from '../../apimachinery/meta/kube-object';
import { Deployment } from '../../apis/extensions/deployment/deployment.schema';
import { ReplicaSet } from '../../apis/extensions/replicaset/replicaset.schema';
import { actualReplicas, availableReplicas, desiredReplicas, maxUnavailable, readyReplicas, specReplicas } from './replica-sets';
import { copyJson } from '../../apimachinery/meta/json-value';

export type DeploymentStatus = NonNullable<Deployment['status']>;
export type DeploymentCondition = NonNullable<DeploymentStatus['conditions']>[number];

/** The reasons of the deployment controller's conditions, as upstream words them. */
export const REASONS = {
  replicaSetUpdated: 'ReplicaSetUpdated',
  failedRSCreate: 'ReplicaSetCreateError',
  newReplicaSet: 'NewReplicaSetCreated',
  foundNewRS: 'FoundNewReplicaSet',
  newRSAvailable: 'NewReplicaSetAvailable',
  timedOut: 'ProgressDeadlineExceeded',
  paused: 'DeploymentPaused',
  resumed: 'DeploymentResumed',
  minimumAvailable: 'MinimumReplicasAvailable',
  minimumUnavailable: 'MinimumReplicasUnavailable',
} as const;

export const PROGRESSING = 'Progressing';
const AVAILABLE = 'Available';
const REPLICA_FAILURE = 'ReplicaFailure';
/** A progressDeadlineSeconds of MaxInt32 means none. */
const NO_DEADLINE = 2 ** 31 - 1;

export function newCondition(type: string, status: string, reason: string, message: string): DeploymentCondition & { type: string } {
  const now = nowTimestamp();
  return { type, status, lastUpdateTime: now, lastTransitionTime: now, reason, message };
}

export const conditionOf = (status: DeploymentStatus | undefined, type: string | undefined) => status?.conditions?.find((condition) => condition.type === type);

/** Sets the condition unless one of the same status and reason is there; the transition time stays while the status does. */
export function setCondition(status: DeploymentStatus, condition: DeploymentCondition): void {
  const current = conditionOf(status, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const next = current && current.status === condition.status ? { ...condition, lastTransitionTime: current.lastTransitionTime } : condition;
  status.conditions = [...removeCondition(status.conditions, condition.type), next];
}

const removeCondition = (conditions: DeploymentCondition[] | undefined, type: string | undefined) => (conditions ?? []).filter((condition) => condition.type !== type);

export function hasProgressDeadline(deployment: Deployment): boolean {
  const deadline = deployment.spec?.progressDeadlineSeconds;
  return deadline !== undefined && deadline !== null && deadline !== NO_DEADLINE;
}

/** Go leaves zero counts out of the JSON: so does the status written here, so that an unchanged one compares equal. */
function withoutZeros(status: DeploymentStatus): DeploymentStatus {
  return Object.fromEntries(Object.entries(status).filter(([, value]) => value !== 0 && value !== undefined)) as DeploymentStatus;
}

/** The status the ReplicaSets report, with the Available condition (calculateStatus). */
export function calculateStatus(all: (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined, deployment: Deployment): DeploymentStatus {
  const available = availableReplicas(all);
  const status = withoutZeros({
    observedGeneration: deployment.metadata.generation,
    replicas: actualReplicas(all),
    updatedReplicas: actualReplicas([newRS]),
    readyReplicas: readyReplicas(all),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, specReplicas(all) - available),
    collisionCount: deployment.status?.collisionCount,
  });
  const conditions = deployment.status?.conditions;
  if (conditions?.length) status.conditions = copyJson(conditions);
  if (available >= desiredReplicas(deployment) - maxUnavailable(deployment)) {
    setCondition(status, newCondition(AVAILABLE, 'True', REASONS.minimumAvailable, 'Deployment has minimum availability.'));
  } else {
    setCondition(status, newCondition(AVAILABLE, 'False', REASONS.minimumUnavailable, 'Deployment does not have minimum availability.'));
  }
  return status;
}

/** Whether all the replicas wanted are updated and available, and the newest spec was seen (DeploymentComplete). */
export function deploymentComplete(deployment: Deployment, status: DeploymentStatus): boolean {
  const desired = desiredReplicas(deployment);
  return (
    (status.updatedReplicas ?? 0) === desired &&
    (status.replicas ?? 0) === desired &&
    (status.availableReplicas ?? 0) === desired &&
    (status.observedGeneration ?? 0) >= (deployment.metadata.generation ?? 0)
  );
}

/** Whether the new status shows progress over the Deployment's (DeploymentProgressing). */
function deploymentProgressing(deployment: Deployment, status: DeploymentStatus): boolean {
  const old = deployment.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (status.replicas ?? 0) - (status.updatedReplicas ?? 0);
  return (
    (status.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (status.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (status.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** When the Progressing condition, last updated at `lastUpdateTime`, runs out of its deadline (ms since the epoch). */
const deadlineOf = (deployment: Deployment, condition: DeploymentCondition) =>
  Date.parse(condition.lastUpdateTime ?? '') + (deployment.spec?.progressDeadlineSeconds ?? 0) * 1000;

function deploymentTimedOut(deployment: Deployment, status: DeploymentStatus): boolean {
  if (!hasProgressDeadline(deployment)) return false;
  const condition = conditionOf(status, PROGRESSING);
  if (!condition || condition.reason === REASONS.newRSAvailable) return false;
  if (condition.reason === REASONS.timedOut) return true;
  return deadlineOf(deployment, condition) < Date.now();
}

/** The status with the Progressing condition a rollout's progress calls for (syncRolloutStatus). */
export function rolloutStatus(all: (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined, deployment: Deployment): DeploymentStatus {
  const status = calculateStatus(all, newRS, deployment);
  if (!hasProgressDeadline(deployment)) status.conditions = removeCondition(status.conditions, PROGRESSING);
  const current = conditionOf(deployment.status, PROGRESSING);
  const complete = status.replicas === status.updatedReplicas && current?.reason === REASONS.newRSAvailable;
  const subject = newRS ? `ReplicaSet "${newRS.metadata.name}"` : `Deployment "${deployment.metadata.name}"`;
  if (hasProgressDeadline(deployment) && !complete) {
    if (deploymentComplete(deployment, status)) {
      setCondition(status, newCondition(PROGRESSING, 'True', REASONS.newRSAvailable, `${subject} has successfully progressed.`));
    } else if (deploymentProgressing(deployment, status)) {
      // progress renews the condition's update time even when its reason stays
      const condition = newCondition(PROGRESSING, 'True', REASONS.replicaSetUpdated, `${subject} is progressing.`);
      if (current?.status === 'True') condition.lastTransitionTime = current.lastTransitionTime;
      status.conditions = [...removeCondition(status.conditions, PROGRESSING), condition];
    } else if (deploymentTimedOut(deployment, status)) {
      setCondition(status, newCondition(PROGRESSING, 'False', REASONS.timedOut, `${subject} has timed out progressing.`));
    }
  }
  const failure = replicaFailure(all, newRS);
  if (failure) setCondition(status, failure);
  else status.conditions = removeCondition(status.conditions, REPLICA_FAILURE);
  if (status.conditions?.length === 0) delete status.conditions;
  return status;
}

/** The ReplicaFailure condition of the new ReplicaSet, else of an old one (getReplicaFailures). */
function replicaFailure(all: (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined): DeploymentCondition | undefined {
  const failed = (rs: ReplicaSet | undefined) => rs?.status?.conditions?.find((condition) => condition.type === REPLICA_FAILURE);
  const found = failed(newRS) ?? all.map(failed).find((condition) => condition);
  if (!found) return undefined;
  return { type: REPLICA_FAILURE, status: found.status, lastUpdateTime: found.lastTransitionTime, lastTransitionTime: found.lastTransitionTime, reason: found.reason, message: found.message };
}

/** When a rollout that shows no progress is to be looked at again for its deadline (requeueStuckDeployment); undefined when never. */
export function recheckAfterMs(deployment: Deployment, status: DeploymentStatus): number | undefined {
  const current = conditionOf(deployment.status, PROGRESSING);
  if (!hasProgressDeadline(deployment) || !current) return undefined;
  if (deploymentComplete(deployment, status) || current.reason === REASONS.timedOut) return undefined;
  return Math.max(0, deadlineOf(deployment, current) - Date.now());
}
