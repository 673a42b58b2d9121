import { Injectable } from '@nestjs/common';
import { isEmptySelector, selectorMatches } from '../../apimachinery/selectors/label-selector-object';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { Deployment } from '../../apis/extensions/deployment/deployment.schema';
import { ReplicaSet } from '../../apis/extensions/replicaset/replicaset.schema';
import { DeploymentClient } from './deployment-client';
import { copyJson } from '../../apimachinery/meta/json-value';

export const controllerOf = (object: KubeObject) => object.metadata.ownerReferences?.find((ref) => ref.controller);

/** Whether the Deployment's selector selects the labels (a selector that is no selector selects nothing). */
export const selects = (deployment: Deployment, labels: Record<string, string> | undefined) =>
  !!deployment.spec?.selector && !isEmptySelector(deployment.spec.selector) && selectorMatches(deployment.spec.selector, labels) === true;

/**
 * The ReplicaSets a Deployment controls, as upstream's controller ref manager claims them: those it controls and
 * selects, orphans it selects adopted (unless it is being deleted, checked afresh), and those it controls but no
 * longer selects released.
 */
@Injectable()
export class ReplicaSetClaims {
  constructor(private readonly client: DeploymentClient) {}

  async claim(deployment: Deployment, candidates: ReplicaSet[]): Promise<ReplicaSet[]> {
    const claimed: ReplicaSet[] = [];
    const uid = deployment.metadata.uid;
    for (const rs of candidates) {
      const controller = controllerOf(rs);
      const matches = selects(deployment, rs.metadata.labels);
      if (controller) {
        if (controller.uid !== uid) continue;
        if (matches) claimed.push(rs);
        else if (!deployment.metadata.deletionTimestamp) await this.release(rs, uid as string);
      } else if (matches && !deployment.metadata.deletionTimestamp && !rs.metadata.deletionTimestamp) {
        await this.checkCanAdopt(deployment);
        claimed.push(await this.adopt(rs, deployment));
      }
    }
    return claimed;
  }

  /** Adoption is checked against the Deployment as it stands, not as the cache holds it. */
  private async checkCanAdopt(deployment: Deployment): Promise<void> {
    const { namespace, name, uid } = deployment.metadata;
    const fresh = await this.client.getDeployment(namespace as string, name as string);
    if (!fresh || fresh.metadata.uid !== uid) throw new Error(`original Deployment ${namespace}/${name} is gone: got uid ${fresh?.metadata.uid}, wanted ${uid}`);
    if (fresh.metadata.deletionTimestamp) throw new Error(`Deployment ${namespace}/${name} has just been deleted at ${fresh.metadata.deletionTimestamp}`);
  }

  private adopt(rs: ReplicaSet, deployment: Deployment): Promise<ReplicaSet> {
    const { name, uid } = deployment.metadata;
    const copy = copyJson(rs);
    copy.metadata.ownerReferences = [
      ...(copy.metadata.ownerReferences ?? []),
      { apiVersion: 'apps/v1', kind: 'Deployment', name, uid, controller: true, blockOwnerDeletion: true },
    ];
    return this.client.updateReplicaSet(copy);
  }

  private async release(rs: ReplicaSet, uid: string): Promise<void> {
    const copy = copyJson(rs);
    const kept = (copy.metadata.ownerReferences ?? []).filter((ref) => ref.uid !== uid);
    if (kept.length > 0) copy.metadata.ownerReferences = kept;
    else delete copy.metadata.ownerReferences;
    await this.client.updateReplicaSet(copy);
  }
}
