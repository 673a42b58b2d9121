import { Injectable } from '@nestjs/common';
import { Deployment } from '../../apis/extensions/deployment/deployment.schema';
import { ReplicaSet } from '../../apis/extensions/replicaset/replicaset.schema';
import { SyncResult } from '../../controller-manager/work-queue';
import { deploymentComplete } from './deployment-status';
import { DeploymentSync } from './deployment-sync';
import {
  active,
  actualReplicas,
  availableReplicas,
  byCreation,
  desiredReplicas,
  maxUnavailable,
  newReplicaSetReplicas,
  replicasOf,
  specReplicas,
} from './replica-sets';

/**
 * The two strategies of upstream's deployment controller (rolling.go, recreate.go), each step judged by what the
 * ReplicaSets report in their status.
 */
@Injectable()
export class Rollouts {
  constructor(private readonly sync: DeploymentSync) {}

  /** Scales the new ReplicaSet up as far as maxSurge allows, else the old ones down as far as maxUnavailable allows. */
  async rolling(deployment: Deployment, sets: ReplicaSet[]): Promise<SyncResult> {
    const { newRS, olds } = await this.sync.replicaSetsAndSyncRevision(deployment, sets, true);
    const all = [...olds, newRS];
    if (newRS && (await this.reconcileNew(all, newRS, deployment))) return this.sync.syncRolloutStatus(all, newRS, deployment);
    if (newRS && (await this.reconcileOld(all, active(olds), newRS, deployment))) return this.sync.syncRolloutStatus(all, newRS, deployment);
    if (deploymentComplete(deployment, deployment.status ?? {})) await this.sync.cleanup(olds, deployment);
    return this.sync.syncRolloutStatus(all, newRS, deployment);
  }

  /** Scales every old ReplicaSet to 0, and the new one up (made only then) once no old replica is reported. */
  async recreate(deployment: Deployment, sets: ReplicaSet[]): Promise<SyncResult> {
    let { newRS, olds } = await this.sync.replicaSetsAndSyncRevision(deployment, sets, false);
    let all = [...olds, newRS];
    let scaledDown = false;
    for (const rs of active(olds)) {
      if ((await this.sync.scaleAndRecordEvent(rs, 0, deployment)).scaled) scaledDown = true;
    }
    if (scaledDown || actualReplicas(olds) > 0) return this.sync.syncRolloutStatus(all, newRS, deployment);
    if (!newRS) {
      ({ newRS, olds } = await this.sync.replicaSetsAndSyncRevision(deployment, sets, true));
      all = [...olds, newRS];
    }
    if (newRS) await this.sync.scaleAndRecordEvent(newRS, desiredReplicas(deployment), deployment);
    if (deploymentComplete(deployment, deployment.status ?? {})) await this.sync.cleanup(olds, deployment);
    return this.sync.syncRolloutStatus(all, newRS, deployment);
  }

  private async reconcileNew(all: (ReplicaSet | undefined)[], newRS: ReplicaSet, deployment: Deployment): Promise<boolean> {
    const desired = desiredReplicas(deployment);
    if (replicasOf(newRS) === desired) return false;
    const target = replicasOf(newRS) > desired ? desired : newReplicaSetReplicas(deployment, all, replicasOf(newRS));
    return (await this.sync.scaleAndRecordEvent(newRS, target, deployment)).scaled;
  }

  /** Scales old ReplicaSets down: those with unavailable replicas first, then by availability (reconcileOldReplicaSets). */
  private async reconcileOld(all: (ReplicaSet | undefined)[], olds: ReplicaSet[], newRS: ReplicaSet, deployment: Deployment): Promise<boolean> {
    if (specReplicas(olds) === 0) return false;
    const minAvailable = desiredReplicas(deployment) - maxUnavailable(deployment);
    const newUnavailable = replicasOf(newRS) - (newRS.status?.availableReplicas ?? 0);
    const maxScaledDown = specReplicas(all) - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return false;
    const { sets, scaledDown: cleaned } = await this.cleanupUnhealthy(olds, deployment, maxScaledDown);
    const scaledDown = await this.scaleDownOld([...sets, newRS], sets, deployment);
    return cleaned + scaledDown > 0;
  }

  private async cleanupUnhealthy(olds: ReplicaSet[], deployment: Deployment, maxCleanup: number): Promise<{ sets: ReplicaSet[]; scaledDown: number }> {
    const sets = [...olds].sort(byCreation);
    let scaledDown = 0;
    for (const [i, rs] of sets.entries()) {
      if (scaledDown >= maxCleanup) break;
      const unhealthy = replicasOf(rs) - (rs.status?.availableReplicas ?? 0);
      // a status newer than the spec may count more available than asked for: nothing to clean up, never a scale-up
      if (replicasOf(rs) === 0 || unhealthy <= 0) continue;
      const count = Math.min(maxCleanup - scaledDown, unhealthy);
      sets[i] = (await this.sync.scaleAndRecordEvent(rs, replicasOf(rs) - count, deployment)).rs;
      scaledDown += count;
    }
    return { sets, scaledDown };
  }

  private async scaleDownOld(all: ReplicaSet[], olds: ReplicaSet[], deployment: Deployment): Promise<number> {
    const minAvailable = desiredReplicas(deployment) - maxUnavailable(deployment);
    const available = availableReplicas(all);
    if (available <= minAvailable) return 0;
    const toScaleDown = available - minAvailable;
    let scaledDown = 0;
    for (const rs of [...olds].sort(byCreation)) {
      if (scaledDown >= toScaleDown) break;
      if (replicasOf(rs) === 0) continue;
      const count = Math.min(replicasOf(rs), toScaleDown - scaledDown);
      await this.sync.scaleAndRecordEvent(rs, replicasOf(rs) - count, deployment);
      scaledDown += count;
    }
    return scaledDown;
  }
}
