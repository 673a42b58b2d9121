import { Injectable, Logger } from '@nestjs/common';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { NAMESPACES } from '../../apis/core/core.kinds';
import { Controller } from '../../controller-manager/controller';
import { ControllerMetrics } from '../../controller-manager/controller-metrics';
import { controllerRateLimiter } from '../../controller-manager/rate-limiter';
import { startInformers } from '../../controller-manager/start-informers';
import { WorkQueue } from '../../controller-manager/work-queue';
import { SharedInformer } from '../../watch/informer';
import { InformerFactory } from '../../watch/informer-factory';
import { NamespaceDeleter } from './namespace-deleter';

/** Between two passes over a namespace whose content is still going (upstream waits for its estimate). */
const CONTENT_RECHECK_MS = 1000;
/** Upstream's namespace controller retries a failed namespace at least every minute. */
const MAX_BACKOFF_MS = 60_000;

/**
 * Upstream's namespace controller, inside the server: each namespace marked for deletion (seen by the shared
 * informer of namespaces) is emptied and finalized by the NamespaceDeleter, one namespace at a time, again after a
 * moment while content remains and with backoff after a failure. The controller manager runs it on the instance
 * that holds its Lease.
 */
@Injectable()
export class NamespaceController implements Controller {
  readonly name = 'namespace';
  private readonly logger = new Logger('NamespaceController');
  private readonly informer: SharedInformer;
  private queue?: WorkQueue;

  constructor(
    informers: InformerFactory,
    private readonly deleter: NamespaceDeleter,
    private readonly metrics: ControllerMetrics,
  ) {
    this.informer = informers.informerFor({ group: NAMESPACES.group, resource: NAMESPACES.resource });
    this.informer.addEventHandler({
      added: (namespace) => this.enqueueIfDeleted(namespace),
      updated: (namespace) => this.enqueueIfDeleted(namespace),
    });
  }

  /** Follows the namespaces and looks at every one marked for deletion. */
  start(signal: AbortSignal): void {
    this.queue = new WorkQueue(this.name, controllerRateLimiter(MAX_BACKOFF_MS), this.metrics, (name) => this.sync(name, signal));
    void this.follow(signal);
  }

  async stop(): Promise<void> {
    const queue = this.queue;
    this.queue = undefined;
    await queue?.shutdown();
  }

  /** Starts the informer and queues the namespaces it holds. */
  private async follow(signal: AbortSignal): Promise<void> {
    if (!(await startInformers([this.informer], signal, this.logger))) return;
    for (const namespace of this.informer.list()) this.enqueueIfDeleted(namespace);
  }

  private enqueueIfDeleted(namespace: KubeObject): void {
    if (namespace.metadata.deletionTimestamp) this.queue?.add(namespace.metadata.name as string);
  }

  private async sync(name: string, signal: AbortSignal): Promise<{ requeueAfterMs?: number }> {
    if (signal.aborted) return {};
    const result = await this.deleter.delete(name);
    return result === 'content-remains' ? { requeueAfterMs: CONTENT_RECHECK_MS } : {};
  }
}
