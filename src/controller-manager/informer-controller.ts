import { Logger } from '@nestjs/common';
import { KubeObject } from '../apimachinery/meta/kube-object';
import { SharedInformer } from '../watch/informer';
import { Controller } from './controller';
import { ControllerMetrics } from './controller-metrics';
import { RateLimiter } from './rate-limiter';
import { SyncResult, WorkQueue } from './work-queue';
import { startInformers } from './start-informers';

/**
 * A controller over shared informers and one work queue, as upstream's controllers are: when it starts leading it
 * starts its informers (again a moment after a failed first read) and looks at each object its main informer holds;
 * the informers' handlers, which the subclass adds, queue keys meanwhile; a sync takes one key at a time. The other
 * informers are those of what the main objects own or refer to (a Deployment's ReplicaSets).
 */
export abstract class InformerController implements Controller {
  abstract readonly name: string;
  protected queue?: WorkQueue;

  constructor(
    protected readonly informer: SharedInformer,
    protected readonly logger: Logger,
    private readonly metrics: ControllerMetrics,
    private readonly others: readonly SharedInformer[] = [],
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
    if (!(await startInformers([...this.others, this.informer], signal, this.logger))) return;
    for (const object of this.informer.list()) this.look(object);
  }
}
