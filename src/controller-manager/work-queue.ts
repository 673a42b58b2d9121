import { Logger } from '@nestjs/common';
import { ControllerMetrics } from './controller-metrics';
import { RateLimiter } from './rate-limiter';

/** What a sync of a key may ask: to look at the key again after a while although it succeeded. */
export interface SyncResult {
  requeueAfterMs?: number;
}

/** The longest delay a Node timer takes (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A controller's rate-limited work queue with one worker (client-go's workqueue): a key is queued once however often
 * it is added, a key added while it is synced is synced again after, a failed sync is retried after the rate
 * limiter's delay, and a successful one forgets the key's failures. It works until shut down; a new lead makes a new one.
 */
export class WorkQueue {
  private readonly logger: Logger;
  private readonly queue: string[] = [];
  private readonly dirty = new Set<string>();
  /** keys to be added later, with when */
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; at: number }>();
  private processing?: string;
  private working?: Promise<void>;
  private shutDown = false;

  constructor(
    private readonly name: string,
    private readonly limiter: RateLimiter,
    private readonly metrics: ControllerMetrics,
    private readonly sync: (key: string) => Promise<SyncResult | void>,
  ) {
    this.logger = new Logger(name);
    metrics.depth.set({ name }, 0);
  }

  add(key: string): void {
    if (this.shutDown || this.dirty.has(key)) return;
    this.metrics.adds.inc({ name: this.name });
    this.dirty.add(key);
    if (this.processing === key) return;
    this.queue.push(key);
    this.metrics.depth.set({ name: this.name }, this.queue.length);
    this.kick();
  }

  /**
   * Adds the key after `delayMs`, or sooner when it is already to be added sooner; a delay that is no number (a
   * time that did not parse) adds nothing. A timer holds at most MAX_TIMER_MS (a longer one would fire at once): a
   * longer delay is waited in parts.
   */
  addAfter(key: string, delayMs: number): void {
    if (this.shutDown || Number.isNaN(delayMs)) return;
    if (delayMs <= 0) return this.add(key);
    const at = Date.now() + delayMs;
    const pending = this.timers.get(key);
    if (pending && pending.at <= at) return;
    clearTimeout(pending?.timer);
    const timer = setTimeout(() => {
      this.timers.delete(key);
      if (delayMs > MAX_TIMER_MS) this.addAfter(key, at - Date.now());
      else this.add(key);
    }, Math.min(delayMs, MAX_TIMER_MS));
    timer.unref();
    this.timers.set(key, { timer, at });
  }

  /** Stops taking keys and drops the queued ones; resolves once the sync under way has ended. */
  async shutdown(): Promise<void> {
    this.shutDown = true;
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.queue.length = 0;
    this.dirty.clear();
    this.metrics.depth.set({ name: this.name }, 0);
    await this.working;
  }

  /** Starts the worker unless it runs (again once it ends, for a key added as it ended). */
  private kick(): void {
    if (this.working || this.shutDown || this.queue.length === 0) return;
    this.working = this.drain().finally(() => {
      this.working = undefined;
      this.kick();
    });
  }

  private async drain(): Promise<void> {
    for (let key = this.queue.shift(); key !== undefined && !this.shutDown; key = this.queue.shift()) {
      this.metrics.depth.set({ name: this.name }, this.queue.length);
      this.dirty.delete(key);
      this.processing = key;
      const end = this.metrics.workDuration.startTimer({ name: this.name });
      try {
        const result = await this.sync(key);
        this.limiter.forget(key);
        if (result?.requeueAfterMs !== undefined) this.addAfter(key, result.requeueAfterMs);
      } catch (error) {
        this.metrics.syncErrors.inc({ name: this.name });
        this.metrics.retries.inc({ name: this.name });
        const delay = this.limiter.when(key);
        this.logger.warn(`${key}: ${(error as Error).message} (retrying in ${Math.round(delay)} ms)`);
        this.addAfter(key, delay);
      } finally {
        end();
        this.processing = undefined;
        if (this.dirty.has(key) && !this.shutDown) this.queue.push(key);
      }
    }
  }
}
