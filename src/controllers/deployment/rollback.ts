import { Injectable } from '@nestjs/common';
import { Deployment } from '../../apis/extensions/deployment/deployment.schema';
import { ReplicaSet } from '../../apis/extensions/replicaset/replicaset.schema';
import { SyncResult } from '../../controller-manager/work-queue';
import { DeploymentClient } from './deployment-client';
import { DeploymentSync } from './deployment-sync';
import { equalIgnoreHash, lastRevision, revisionOf, setTemplateAndAnnotationsFrom } from './replica-sets';

/** The reasons of the rollback's events. */
const REVISION_NOT_FOUND = 'DeploymentRollbackRevisionNotFound';
const TEMPLATE_UNCHANGED = 'DeploymentRollbackTemplateUnchanged';
const ROLLBACK_DONE = 'DeploymentRollback';

/**
 * The rollback the `rollback` subresource asks for in `spec.rollbackTo` (rollback.go): the template and annotations
 * of the ReplicaSet of that revision (0: the one before the newest) become the Deployment's, then the request is
 * cleared; the next sync rolls the template out as any other change.
 */
@Injectable()
export class DeploymentRollback {
  constructor(
    private readonly sync: DeploymentSync,
    private readonly client: DeploymentClient,
  ) {}

  async rollback(deployment: Deployment, sets: ReplicaSet[]): Promise<SyncResult> {
    const { newRS, olds } = await this.sync.replicaSetsAndSyncRevision(deployment, sets, true);
    const all = newRS ? [...olds, newRS] : olds;
    let revision = deployment.spec?.rollbackTo?.revision ?? 0;
    if (revision === 0) {
      revision = lastRevision(all);
      if (revision === 0) return this.giveUp(deployment, 'Unable to find last revision.');
    }
    const target = all.find((rs) => revisionOf(rs) === revision);
    if (!target) return this.giveUp(deployment, 'Unable to find the revision to rollback to.');
    const name = deployment.metadata.name as string;
    if (equalIgnoreHash(deployment.spec?.template, target.spec?.template)) {
      await this.client.event(deployment, 'Warning', TEMPLATE_UNCHANGED, `The rollback revision contains the same template as current deployment "${name}"`);
      await this.clearRollbackTo(deployment);
      return {};
    }
    setTemplateAndAnnotationsFrom(deployment, target);
    await this.clearRollbackTo(deployment);
    await this.client.event(deployment, 'Normal', ROLLBACK_DONE, `Rolled back deployment "${name}" to revision ${revision}`);
    return {};
  }

  private async giveUp(deployment: Deployment, message: string): Promise<SyncResult> {
    await this.client.event(deployment, 'Warning', REVISION_NOT_FOUND, message);
    await this.clearRollbackTo(deployment);
    return {};
  }

  private clearRollbackTo(deployment: Deployment): Promise<void> {
    if (deployment.spec) delete deployment.spec.rollbackTo;
    return this.sync.update(deployment);
  }
}
