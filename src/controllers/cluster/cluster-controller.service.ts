import { Injectable, Logger } from '@nestjs/common';
import { parseGoDuration } from '../../apimachinery/parameters/duration';
import { Cluster } from '../../apis/federation/cluster/cluster.schema';
import { FEDERATION } from '../../apis/federation/federation.group';
import { Settings } from '../../config/settings';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { ControllerMetrics } from '../../controller-manager/controller-metrics';
import { InformerController } from '../../controller-manager/informer-controller';
import { controllerRateLimiter, RateLimiter } from '../../controller-manager/rate-limiter';
import { InformerFactory } from '../../watch/informer-factory';
import { hostAddress } from './cluster-address';
import { conditionsAfter, ProbeOutcome } from './cluster-conditions';
import { ClusterStatusWriter } from './cluster-status-writer';
import { ClusterTarget, ClusterTargets, UnusableClusterConfig } from './cluster-targets';
import { getHealthz } from './healthz-probe';

/**
 * Federation's cluster controller, inside the server: every `--cluster-monitor-period` it probes each federation
 * Cluster's `/healthz` (at the address its `serverAddressByClientCIDRs` give this server, with the credentials of
 * the Secret its `secretRef` names) and records the Ready and Offline conditions through `clusters/status`. A
 * cluster is probed when this instance starts leading, a period after it is registered, and a period after each
 * probe. The zones and region federation read from the member's Nodes are not filled in (no Nodes are read).
 */
@Injectable()
export class ClusterController extends InformerController {
  readonly name = 'cluster';
  private readonly periodMs: number;
  private readonly host = hostAddress();

  constructor(
    informers: InformerFactory,
    settings: Settings,
    private readonly targets: ClusterTargets,
    private readonly statuses: ClusterStatusWriter,
    metrics: ControllerMetrics,
  ) {
    super(informers.informerFor({ group: FEDERATION.group, resource: 'clusters' }), new Logger('ClusterController'), metrics);
    this.periodMs = parseGoDuration(settings.CLUSTER_MONITOR_PERIOD) as number;
    this.informer.addEventHandler({
      added: (cluster, initialList) => {
        if (!initialList) this.queue?.addAfter(cluster.metadata.name as string, this.periodMs);
      },
    });
  }

  /** A failed write of a status is tried again within a period. */
  protected rateLimiter(): RateLimiter {
    return controllerRateLimiter(this.periodMs);
  }

  /** Every cluster is probed when the controller starts. */
  protected look(cluster: KubeObject): void {
    this.queue?.add(cluster.metadata.name as string);
  }

  /** Probes the cluster and records its conditions; again a period later while it exists. */
  protected async sync(name: string, signal: AbortSignal): Promise<{ requeueAfterMs?: number }> {
    const cluster = this.informer.get(name) as Cluster | undefined;
    if (!cluster || signal.aborted) return {};
    const outcome = await this.probe(cluster, signal);
    if (signal.aborted) return {};
    await this.statuses.write(cluster, (previous) => conditionsAfter(outcome, previous));
    return { requeueAfterMs: this.periodMs };
  }

  private async probe(cluster: Cluster, signal: AbortSignal): Promise<ProbeOutcome> {
    let target: ClusterTarget;
    try {
      target = await this.targets.targetOf(cluster, this.host);
    } catch (error) {
      if (error instanceof UnusableClusterConfig) return { kind: 'unreachable', cause: error.message };
      throw error;
    }
    const answer = await getHealthz(target.url, target.credentials, signal);
    if ('error' in answer) {
      this.logger.debug(`cluster ${cluster.metadata.name} at ${target.url.origin} is not reachable: ${answer.error}`);
      return { kind: 'unreachable' };
    }
    return answer.body.toLowerCase() === 'ok' ? { kind: 'healthy' } : { kind: 'unhealthy' };
  }
}
