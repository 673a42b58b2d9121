import { Injectable, Logger } from '@nestjs/common';
import { isEmptySelector } from '../../apimachinery/selectors/label-selector-object';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { Deployment } from '../../apis/extensions/deployment/deployment.schema';
import { EXTENSIONS } from '../../apis/extensions/extensions.group';
import { ReplicaSet } from '../../apis/extensions/replicaset/replicaset.schema';
import { ControllerMetrics } from '../../controller-manager/controller-metrics';
import { defaultControllerRateLimiter, RateLimiter } from '../../controller-manager/rate-limiter';
import { InformerController } from '../../controller-manager/informer-controller';
import { SyncResult } from '../../controller-manager/work-queue';
import { objectKey, SharedInformer } from '../../watch/informer';
import { InformerFactory } from '../../watch/informer-factory';
import { DeploymentClient } from './deployment-client';
import { DeploymentSync } from './deployment-sync';
import { controllerOf, ReplicaSetClaims, selects } from './replica-set-claims';
import { DeploymentRollback } from './rollback';
import { Rollouts } from './rollouts';
import { copyJson } from '../../apimachinery/meta/json-value';

const keyOf = (object: KubeObject) => objectKey(object.metadata.namespace, object.metadata.name as string);

/** An object with initializers pending, which lists and watches of clients do not show (1.7's initialization). */
const uninitialized = (object: KubeObject) => !!object.metadata.initializers;

/**
 * Upstream's deployment controller, inside the server: each Deployment (seen by the shared informers of Deployments
 * and ReplicaSets, in their stored extensions/v1beta1 form) is synced one at a time: its ReplicaSets claimed, then
 * paused, rolled back, resized or rolled out by its strategy, and its status written. A change of a ReplicaSet
 * syncs the Deployment that controls it (or, for an orphan, those that select it). The controller manager runs it on
 * the instance that holds its Lease.
 */
@Injectable()
export class DeploymentController extends InformerController {
  readonly name = 'deployment';
  private readonly replicaSets: SharedInformer;

  constructor(
    informers: InformerFactory,
    metrics: ControllerMetrics,
    private readonly client: DeploymentClient,
    private readonly claims: ReplicaSetClaims,
    private readonly steps: DeploymentSync,
    private readonly rollouts: Rollouts,
    private readonly rollbacks: DeploymentRollback,
  ) {
    const replicaSets = informers.informerFor({ group: EXTENSIONS.group, resource: 'replicasets' });
    super(informers.informerFor({ group: EXTENSIONS.group, resource: 'deployments' }), new Logger('DeploymentController'), metrics, [replicaSets]);
    this.replicaSets = replicaSets;
    const enqueue = (object: KubeObject) => this.look(object);
    this.informer.addEventHandler({ added: enqueue, updated: enqueue, deleted: enqueue });
    this.replicaSets.addEventHandler({
      added: (rs) => this.enqueueFor(rs),
      updated: (rs, previous) => {
        const before = controllerOf(previous);
        if (before && before.uid !== controllerOf(rs)?.uid) this.enqueueFor(previous as KubeObject);
        this.enqueueFor(rs);
      },
      deleted: (rs) => this.enqueueFor(rs),
    });
  }

  protected rateLimiter(): RateLimiter {
    return defaultControllerRateLimiter();
  }

  /** Every Deployment is synced, when seen and at each change. */
  protected look(deployment: KubeObject): void {
    if (!uninitialized(deployment)) this.queue?.add(keyOf(deployment));
  }

  /** The Deployment that controls the ReplicaSet, or for an orphan every Deployment of its namespace that selects it. */
  private enqueueFor(rs: KubeObject): void {
    if (!this.queue || uninitialized(rs)) return; // not leading: nothing to queue
    const controller = controllerOf(rs);
    const namespace = rs.metadata.namespace;
    if (controller) {
      if (controller.kind !== 'Deployment') return;
      const owner = this.informer.get(objectKey(namespace, controller.name as string));
      if (owner && owner.metadata.uid === controller.uid) this.queue?.add(keyOf(owner));
      return;
    }
    for (const deployment of this.informer.list()) {
      if (deployment.metadata.namespace === namespace && selects(deployment as Deployment, rs.metadata.labels ?? undefined)) this.queue?.add(keyOf(deployment));
    }
  }

  protected async sync(key: string, signal: AbortSignal): Promise<SyncResult> {
    const cached = this.informer.get(key) as Deployment | undefined;
    if (signal.aborted || !cached || uninitialized(cached)) return {};
    const deployment = copyJson(cached);
    if (!deployment.spec?.selector || isEmptySelector(deployment.spec.selector)) return this.selectingAll(deployment);
    const candidates = [...this.replicaSets.list()].filter((rs) => rs.metadata.namespace === deployment.metadata.namespace && !uninitialized(rs)) as ReplicaSet[];
    const sets = await this.claims.claim(deployment, candidates);
    if (deployment.metadata.deletionTimestamp) return this.steps.syncStatusOnly(deployment, sets);
    await this.steps.checkPausedConditions(deployment);
    if (deployment.spec.paused) return this.steps.sync(deployment, sets);
    if (deployment.spec.rollbackTo) return this.rollbacks.rollback(deployment, sets);
    if (await this.steps.isScalingEvent(deployment, sets)) return this.steps.sync(deployment, sets);
    if (deployment.spec.strategy?.type === 'Recreate') return this.rollouts.recreate(deployment, sets);
    return this.rollouts.rolling(deployment, sets);
  }

  /** A Deployment whose selector selects everything is left alone, but for its observedGeneration. */
  private async selectingAll(deployment: Deployment): Promise<SyncResult> {
    await this.client.event(deployment, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
    if ((deployment.status?.observedGeneration ?? 0) < (deployment.metadata.generation ?? 0)) {
      deployment.status = { ...deployment.status, observedGeneration: deployment.metadata.generation };
      await this.steps.updateStatus(deployment);
    }
    return {};
  }
}
