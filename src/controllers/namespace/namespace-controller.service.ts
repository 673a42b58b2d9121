import { Injectable, Logger } from '@nestjs/common';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { NAMESPACES } from '../../apis/core/core.kinds';
import { ControllerMetrics } from '../../controller-manager/controller-metrics';
import { InformerController } from '../../controller-manager/informer-controller';
import { controllerRateLimiter, RateLimiter } from '../../controller-manager/rate-limiter';
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
export class NamespaceController extends InformerController {
  readonly name = 'namespace';

  constructor(
    informers: InformerFactory,
    private readonly deleter: NamespaceDeleter,
    metrics: ControllerMetrics,
  ) {
    super(informers.informerFor({ group: NAMESPACES.group, resource: NAMESPACES.resource }), new Logger('NamespaceController'), metrics);
    this.informer.addEventHandler({
      added: (namespace) => this.look(namespace),
      updated: (namespace) => this.look(namespace),
    });
  }

  protected rateLimiter(): RateLimiter {
    return controllerRateLimiter(MAX_BACKOFF_MS);
  }

  /** A namespace marked for deletion is queued. */
  protected look(namespace: KubeObject): void {
    if (namespace.metadata.deletionTimestamp) this.queue?.add(namespace.metadata.name as string);
  }

  protected async sync(name: string, signal: AbortSignal): Promise<{ requeueAfterMs?: number }> {
    if (signal.aborted) return {};
    const result = await this.deleter.delete(name);
    return result === 'content-remains' ? { requeueAfterMs: CONTENT_RECHECK_MS } : {};
  }
}
