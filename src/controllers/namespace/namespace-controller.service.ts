import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { NAMESPACES } from '../../apis/core/core.kinds';
import { CollectorLeadership } from '../../gc/collector-leadership';
import { SharedInformer } from '../../watch/informer';
import { InformerFactory } from '../../watch/informer-factory';
import { NamespaceDeleter } from './namespace-deleter';

/** Between two passes over a namespace whose content is still going (upstream waits for its estimate). */
const CONTENT_RECHECK_MS = 1000;
/** Between a failed pass and the next, at first; it doubles up to the maximum (upstream's rate-limited queue). */
const FAILURE_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 60_000;

/**
 * Upstream's namespace controller, inside the server: each namespace marked for deletion (seen by the shared
 * informer of namespaces) is emptied and finalized by the NamespaceDeleter, one namespace at a time, again after a
 * moment while content remains and with a growing delay after a failure. It runs on the instance that runs the
 * garbage collector (see CollectorLeadership), so on one instance at a time.
 */
@Injectable()
export class NamespaceController implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('NamespaceController');
  private readonly informer: SharedInformer;
  /** namespaces waiting for a pass, with the earliest time of their next one */
  private readonly queue = new Map<string, number>();
  private readonly failures = new Map<string, number>();
  /** the work under way, which a shutdown waits for */
  private working?: Promise<void>;
  private wake?: NodeJS.Timeout;
  private stopped = false;
  private following = false;

  constructor(
    informers: InformerFactory,
    private readonly leadership: CollectorLeadership,
    private readonly deleter: NamespaceDeleter,
  ) {
    this.informer = informers.informerFor({ group: NAMESPACES.group, resource: NAMESPACES.resource });
  }

  onModuleInit(): void {
    this.leadership.follow(() => void this.lead());
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.wake);
    this.queue.clear();
    await this.working;
  }

  /** On taking the lead: follows the namespaces (once) and looks at every one marked for deletion. */
  private async lead(): Promise<void> {
    if (!this.following) {
      this.following = true;
      this.informer.addEventHandler({
        added: (namespace) => this.enqueueIfDeleted(namespace),
        updated: (namespace) => this.enqueueIfDeleted(namespace),
      });
    }
    try {
      await this.informer.start();
    } catch (error) {
      this.logger.error(`reading the namespaces failed: ${(error as Error).message}`);
    }
    for (const namespace of this.informer.list()) this.enqueueIfDeleted(namespace);
  }

  private enqueueIfDeleted(namespace: KubeObject): void {
    if (namespace.metadata.deletionTimestamp) this.enqueue(namespace.metadata.name as string, 0);
  }

  private enqueue(name: string, delayMs: number): void {
    if (this.stopped) return;
    const at = Date.now() + delayMs;
    const queued = this.queue.get(name);
    if (queued === undefined || at < queued) this.queue.set(name, at);
    this.schedule();
  }

  /** Works now when something is due, else wakes when the next one is. */
  private schedule(): void {
    if (this.working || this.stopped || this.queue.size === 0) return;
    clearTimeout(this.wake);
    const next = Math.min(...this.queue.values());
    this.wake = setTimeout(() => {
      this.working = this.work().finally(() => {
        this.working = undefined;
        this.schedule();
      });
    }, Math.max(0, next - Date.now()));
    this.wake.unref();
  }

  private async work(): Promise<void> {
    for (let name = this.due(); name !== undefined && !this.stopped; name = this.due()) {
      this.queue.delete(name);
      if (this.leadership.isLeader) await this.pass(name);
    }
  }

  private due(): string | undefined {
    const now = Date.now();
    for (const [name, at] of this.queue) if (at <= now) return name;
    return undefined;
  }

  private async pass(name: string): Promise<void> {
    try {
      const result = await this.deleter.delete(name);
      this.failures.delete(name);
      if (result === 'content-remains') this.enqueue(name, CONTENT_RECHECK_MS);
    } catch (error) {
      const delay = Math.min(MAX_BACKOFF_MS, this.failures.get(name) ?? FAILURE_BACKOFF_MS);
      this.failures.set(name, delay * 2);
      this.logger.warn(`namespace ${name}: ${(error as Error).message} (retrying in ${delay} ms)`);
      this.enqueue(name, delay);
    }
  }
}
