import { Injectable } from '@nestjs/common';
import { StatusError } from '../../apimachinery/errors/status-error';
import { deepEqual } from '../../apimachinery/meta/deep-equal';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { Deployment } from '../../apis/extensions/deployment/deployment.schema';
import { ReplicaSet } from '../../apis/extensions/replicaset/replicaset.schema';
import { SyncResult } from '../../controller-manager/work-queue';
import { DeploymentClient } from './deployment-client';
import {
  calculateStatus,
  conditionOf,
  hasProgressDeadline,
  newCondition,
  PROGRESSING,
  REASONS,
  recheckAfterMs,
  rolloutStatus,
  setCondition,
} from './deployment-status';
import { computeHash, POD_TEMPLATE_HASH_LABEL } from './pod-template-hash';
import {
  active,
  activeOrLatest,
  byRevision,
  bySizeNewer,
  bySizeOlder,
  desiredReplicas,
  desiredReplicasAnnotation,
  findNewReplicaSet,
  isSaturated,
  maxRevision,
  maxSurge,
  newReplicaSetReplicas,
  oldReplicaSets,
  proportion,
  replicasOf,
  REVISION_ANNOTATION,
  setDeploymentRevision,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
  specReplicas,
} from './replica-sets';
import { copyJson } from '../../apimachinery/meta/json-value';

/** The Deployment's ReplicaSets: the one of its template (none yet, or not created) and the others. */
export interface ReplicaSetsOf {
  newRS?: ReplicaSet;
  olds: ReplicaSet[];
}

/** Go's copy of what the API answered over the object the controller works on. */
function takeOver<T extends KubeObject>(object: T, written: T): T {
  for (const key of Object.keys(object)) delete (object as Record<string, unknown>)[key];
  return Object.assign(object, copyJson(written));
}

const alreadyExists = (error: unknown) => error instanceof StatusError && error.reason === 'AlreadyExists';
const namespaceTerminating = (error: unknown) =>
  error instanceof StatusError && !!error.details?.causes?.some((cause) => cause.reason === 'NamespaceTerminating');

/**
 * The steps of upstream's deployment controller shared by its strategies (sync.go): finding or making the new
 * ReplicaSet and keeping revisions, scaling ReplicaSets (with their ScalingReplicaSet events), proportional scaling,
 * cleaning up old ReplicaSets past revisionHistoryLimit, and the status. The Deployment it is given is the
 * controller's own copy, which it updates with what each write of the Deployment answered.
 */
@Injectable()
export class DeploymentSync {
  constructor(private readonly client: DeploymentClient) {}

  /** The new ReplicaSet (made when `create` and missing) with its revision kept above the old ones', and the old ones. */
  async replicaSetsAndSyncRevision(deployment: Deployment, sets: ReplicaSet[], create: boolean): Promise<ReplicaSetsOf> {
    const existing = findNewReplicaSet(deployment, sets);
    const olds = oldReplicaSets(sets, existing);
    const newRS = await this.newReplicaSet(deployment, existing, olds, create);
    return { newRS, olds };
  }

  private async newReplicaSet(deployment: Deployment, existing: ReplicaSet | undefined, olds: ReplicaSet[], create: boolean): Promise<ReplicaSet | undefined> {
    const revision = maxRevision(olds) + 1;
    if (existing) return this.syncExisting(deployment, existing, revision);
    if (!create) return undefined;
    const template = copyJson(deployment.spec?.template ?? {});
    const hash = computeHash(deployment.spec?.template ?? {}, deployment.status?.collisionCount ?? undefined);
    template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, [POD_TEMPLATE_HASH_LABEL]: hash } };
    const selector = copyJson(deployment.spec?.selector ?? {});
    selector.matchLabels = { ...selector.matchLabels, [POD_TEMPLATE_HASH_LABEL]: hash };
    const { name, namespace, uid } = deployment.metadata;
    const rs: ReplicaSet = {
      apiVersion: 'extensions/v1beta1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${name}-${hash}`,
        namespace,
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name, uid, controller: true, blockOwnerDeletion: true }],
        labels: { ...template.metadata.labels },
      },
      spec: { replicas: 0, minReadySeconds: deployment.spec?.minReadySeconds, selector, template },
    };
    const replicas = newReplicaSetReplicas(deployment, [...olds, rs], 0);
    rs.spec = { ...rs.spec, replicas };
    setNewReplicaSetAnnotations(deployment, rs, revision, false);
    let created: ReplicaSet;
    let found = false;
    try {
      created = await this.client.createReplicaSet(rs);
    } catch (error) {
      if (alreadyExists(error)) {
        const owned = await this.ownedWithTemplate(deployment, rs);
        if (!owned) {
          // a hash collision: the next sync names the ReplicaSet with the count raised
          deployment.status = { ...deployment.status, collisionCount: (deployment.status?.collisionCount ?? 0) + 1 };
          await this.updateStatus(deployment).catch(() => undefined);
          throw error;
        }
        created = owned;
        found = true;
      } else {
        if (!namespaceTerminating(error)) await this.reportCreateFailure(deployment, rs, error as Error);
        throw error;
      }
    }
    if (!found && replicas > 0) {
      await this.client.event(deployment, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${created.metadata.name} from 0 to ${replicas}`);
    }
    let needsUpdate = setDeploymentRevision(deployment, String(revision));
    if (!found && hasProgressDeadline(deployment)) {
      const status = (deployment.status ??= {});
      setCondition(status, newCondition(PROGRESSING, 'True', REASONS.newReplicaSet, `Created new replica set "${created.metadata.name}"`));
      needsUpdate = true;
    }
    if (needsUpdate) await this.updateStatus(deployment);
    return created;
  }

  /** The existing new ReplicaSet with the Deployment's annotations and minReadySeconds, its revision on the Deployment. */
  private async syncExisting(deployment: Deployment, existing: ReplicaSet, revision: number): Promise<ReplicaSet> {
    const rs = copyJson(existing);
    const annotationsUpdated = setNewReplicaSetAnnotations(deployment, rs, revision, true);
    const minReadySeconds = deployment.spec?.minReadySeconds;
    if (annotationsUpdated || (rs.spec?.minReadySeconds ?? 0) !== (minReadySeconds ?? 0)) {
      rs.spec = { ...rs.spec, minReadySeconds };
      return this.client.updateReplicaSet(rs);
    }
    let needsUpdate = setDeploymentRevision(deployment, rs.metadata.annotations?.[REVISION_ANNOTATION] ?? '');
    if (hasProgressDeadline(deployment) && !conditionOf(deployment.status, PROGRESSING)) {
      const status = (deployment.status ??= {});
      setCondition(status, newCondition(PROGRESSING, 'True', REASONS.foundNewRS, `Found new replica set "${rs.metadata.name}"`));
      needsUpdate = true;
    }
    if (needsUpdate) await this.updateStatus(deployment);
    return rs;
  }

  /** The ReplicaSet of that name when the Deployment controls it and its template is the Deployment's. */
  private async ownedWithTemplate(deployment: Deployment, rs: ReplicaSet): Promise<ReplicaSet | undefined> {
    const existing = await this.client.getReplicaSet(rs.metadata.namespace as string, rs.metadata.name as string);
    const controller = existing?.metadata.ownerReferences?.find((ref) => ref.controller);
    if (!existing || controller?.uid !== deployment.metadata.uid) return undefined;
    return findNewReplicaSet(deployment, [existing]);
  }

  private async reportCreateFailure(deployment: Deployment, rs: ReplicaSet, error: Error): Promise<void> {
    const message = `Failed to create new replica set "${rs.metadata.name}": ${error.message}`;
    if (hasProgressDeadline(deployment)) {
      const status = (deployment.status ??= {});
      setCondition(status, newCondition(PROGRESSING, 'False', REASONS.failedRSCreate, message));
      await this.updateStatus(deployment).catch(() => undefined);
    }
    await this.client.event(deployment, 'Warning', REASONS.failedRSCreate, message);
  }

  /** Scales a ReplicaSet, recording a ScalingReplicaSet event; whether it scaled, and the ReplicaSet as written. */
  async scaleAndRecordEvent(rs: ReplicaSet, replicas: number, deployment: Deployment): Promise<{ scaled: boolean; rs: ReplicaSet }> {
    if (replicasOf(rs) === replicas) return { scaled: false, rs };
    return this.scaleReplicaSet(rs, replicas, deployment, replicasOf(rs) < replicas ? 'up' : 'down');
  }

  private async scaleReplicaSet(rs: ReplicaSet, replicas: number, deployment: Deployment, operation: string): Promise<{ scaled: boolean; rs: ReplicaSet }> {
    const resized = replicasOf(rs) !== replicas;
    const copy = copyJson(rs);
    const annotated = setReplicasAnnotations(copy, desiredReplicas(deployment), desiredReplicas(deployment) + maxSurge(deployment));
    if (!resized && !annotated) return { scaled: false, rs };
    copy.spec = { ...copy.spec, replicas };
    const written = await this.client.updateReplicaSet(copy);
    if (resized) {
      await this.client.event(deployment, 'Normal', 'ScalingReplicaSet', `Scaled ${operation} replica set ${rs.metadata.name} from ${replicasOf(rs)} to ${replicas}`);
    }
    return { scaled: resized, rs: written };
  }

  /** Whether the Deployment was resized since its active ReplicaSets were last told its size (isScalingEvent). */
  async isScalingEvent(deployment: Deployment, sets: ReplicaSet[]): Promise<boolean> {
    const { newRS, olds } = await this.replicaSetsAndSyncRevision(deployment, sets, false);
    return active([...olds, newRS]).some((rs) => {
      const desired = desiredReplicasAnnotation(rs);
      return desired !== undefined && desired !== desiredReplicas(deployment);
    });
  }

  /** A paused Deployment's or a resized one's sync: scaling only, no rollout (sync). */
  async sync(deployment: Deployment, sets: ReplicaSet[]): Promise<SyncResult> {
    const { newRS, olds } = await this.replicaSetsAndSyncRevision(deployment, sets, false);
    await this.scale(deployment, newRS, olds);
    if (deployment.spec?.paused && !deployment.spec.rollbackTo) await this.cleanup(olds, deployment);
    await this.syncStatus([...olds, newRS], newRS, deployment);
    return {};
  }

  /** The status alone (a Deployment being deleted). */
  async syncStatusOnly(deployment: Deployment, sets: ReplicaSet[]): Promise<SyncResult> {
    const { newRS, olds } = await this.replicaSetsAndSyncRevision(deployment, sets, false);
    await this.syncStatus([...olds, newRS], newRS, deployment);
    return {};
  }

  /** Brings the ReplicaSets' sizes to the Deployment's: the one active ReplicaSet whole, else proportionally (scale). */
  private async scale(deployment: Deployment, newRS: ReplicaSet | undefined, olds: ReplicaSet[]): Promise<void> {
    const desired = desiredReplicas(deployment);
    const single = activeOrLatest(newRS, olds);
    if (single) {
      if (replicasOf(single) !== desired) await this.scaleAndRecordEvent(single, desired, deployment);
      return;
    }
    if (isSaturated(deployment, newRS)) {
      for (const old of active(olds)) await this.scaleAndRecordEvent(old, 0, deployment);
      return;
    }
    if (deployment.spec?.strategy?.type !== 'RollingUpdate') return;
    const sets = active([...olds, newRS]);
    const allowed = desired > 0 ? desired + maxSurge(deployment) : 0;
    const toAdd = allowed - specReplicas(sets);
    const operation = toAdd > 0 ? 'up' : toAdd < 0 ? 'down' : '';
    if (toAdd !== 0) sets.sort(toAdd > 0 ? bySizeNewer : bySizeOlder);
    const sizes = new Map<ReplicaSet, number>();
    let added = 0;
    for (const rs of sets) {
      const share = toAdd !== 0 ? proportion(rs, deployment, toAdd, added) : 0;
      sizes.set(rs, replicasOf(rs) + share);
      added += share;
    }
    for (const [i, rs] of sets.entries()) {
      // what the proportions left over goes to the largest
      if (i === 0 && toAdd !== 0) sizes.set(rs, Math.max(0, (sizes.get(rs) as number) + toAdd - added));
      await this.scaleReplicaSet(rs, sizes.get(rs) as number, deployment, operation);
    }
  }

  /** Deletes the oldest empty ReplicaSets past revisionHistoryLimit (cleanupDeployment). */
  async cleanup(olds: ReplicaSet[], deployment: Deployment): Promise<void> {
    const limit = deployment.spec?.revisionHistoryLimit;
    if (limit === undefined || limit === null || limit === 2 ** 31 - 1) return;
    const cleanable = olds.filter((rs) => !rs.metadata.deletionTimestamp).sort(byRevision);
    const excess = cleanable.length - limit;
    for (const rs of cleanable.slice(0, Math.max(0, excess))) {
      const settled = (rs.status?.replicas ?? 0) === 0 && replicasOf(rs) === 0 && (rs.metadata.generation ?? 0) <= (rs.status?.observedGeneration ?? 0);
      if (settled) await this.client.deleteReplicaSet(rs);
    }
  }

  /** Writes the status the ReplicaSets report when it changed (syncDeploymentStatus). */
  async syncStatus(all: (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined, deployment: Deployment): Promise<void> {
    const status = calculateStatus(all, newRS, deployment);
    if (deepEqual(status, deployment.status ?? {})) return;
    deployment.status = status;
    await this.updateStatus(deployment);
  }

  /** The same with the Progressing condition; when no progress shows, a look again at the deadline (syncRolloutStatus). */
  async syncRolloutStatus(all: (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined, deployment: Deployment): Promise<SyncResult> {
    const status = rolloutStatus(all, newRS, deployment);
    if (deepEqual(status, deployment.status ?? {})) {
      const after = recheckAfterMs(deployment, status);
      return after === undefined ? {} : { requeueAfterMs: Math.max(after, 1000) };
    }
    deployment.status = status;
    await this.updateStatus(deployment);
    return {};
  }

  /** Records that the Deployment is paused or resumed in its Progressing condition (checkPausedConditions). */
  async checkPausedConditions(deployment: Deployment): Promise<void> {
    if (!hasProgressDeadline(deployment)) return;
    const condition = conditionOf(deployment.status, PROGRESSING);
    if (condition?.reason === REASONS.timedOut) return;
    const pausedRecorded = condition?.reason === REASONS.paused;
    const status = (deployment.status ??= {});
    if (deployment.spec?.paused && !pausedRecorded) {
      setCondition(status, newCondition(PROGRESSING, 'Unknown', REASONS.paused, 'Deployment is paused'));
    } else if (!deployment.spec?.paused && pausedRecorded) {
      setCondition(status, newCondition(PROGRESSING, 'Unknown', REASONS.resumed, 'Deployment is resumed'));
    } else {
      return;
    }
    await this.updateStatus(deployment);
  }

  async updateStatus(deployment: Deployment): Promise<void> {
    takeOver(deployment, await this.client.updateDeploymentStatus(deployment));
  }

  async update(deployment: Deployment): Promise<void> {
    takeOver(deployment, await this.client.updateDeployment(deployment));
  }
}
