import { Logger } from '@nestjs/common';
import { KubeObject } from '../apimachinery/meta/kube-object';
import { SharedInformer } from '../watch/informer';
import { Controller } from './controller';
import { ControllerMetrics } from './controller-metrics';
import { RateLimiter } from './rate-limiter';
import { SyncResult, WorkQueue } from './work-queue';

/** Between a controller's failed first read of its informer's objects and the next try. */
const INFORMER_RETRY_MS = 1000;

/**
 * A controller over one shared informer and one work queue, as upstream's controllers are: when it starts leading
 * it starts the informer (again a moment after a failed first read) and looks at each object the informer holds;
 * the informer's handlers, which the subclass adds, queue keys meanwhile; a sync takes one key at a time.
 */
export abstract class InformerController implements Controller {
  abstract readonly name: string;
  protected queue?: WorkQueue;

  constructor(
    protected readonly informer: SharedInformer,
    protected readonly logger: Logger,
    private readonly metrics: ControllerMetrics,
  ) {}

  start(signal: AbortSignal): void {
    this.queue = new WorkQueue(this.name, this.rateLimiter(), this.metrics, (key) => this.sync(key, signal));
    void this.follow(signal);
  }

  async stop(): Promise<void> {
    const queue = this.queue;
    this.queue = undefined;
    await queue?.shutdown();
  }

  /** The rate limiter of a new lead's work queue. */
  protected abstract rateLimiter(): RateLimiter;

  /** Queues what an object the informer holds when the controller starts calls for. */
  protected abstract look(object: KubeObject): void;

  protected abstract sync(key: string, signal: AbortSignal): Promise<SyncResult | void>;

  private async follow(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.informer.start();
        for (const object of this.informer.list()) this.look(object);
        return;
      } catch (error) {
        this.logger.error(`reading the ${this.informer.resource.resource} failed: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, INFORMER_RETRY_MS).unref());
      }
    }
  }
}
