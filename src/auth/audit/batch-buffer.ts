import { Logger } from '@nestjs/common';

/** How many events a write takes at most, and how long the first of them waits for the others. */
export interface BatchLimits {
  maxSize: number;
  maxWaitMs: number;
}

/**
 * Holds events for one audit sink and writes them in batches off the request path: a batch goes when it is full or
 * when its first event has waited `maxWaitMs`. It holds at most `capacity`: beyond that, and when a write fails,
 * events are dropped and counted, so a slow sink never slows requests or grows memory without bound.
 */
export class BatchBuffer<T> {
  private readonly logger: Logger;
  private queue: T[] = [];
  private timer?: NodeJS.Timeout;
  private writing?: Promise<void>;
  /** a full batch: no more than the buffer holds, or a buffer smaller than a batch would only ever be written by its timer */
  private readonly batchSize: number;

  constructor(
    name: string,
    private readonly capacity: number,
    private readonly limits: BatchLimits,
    private readonly write: (batch: T[]) => Promise<void>,
    private readonly dropped: (count: number) => void,
  ) {
    this.logger = new Logger(`Audit:${name}`);
    this.batchSize = Math.min(limits.maxSize, capacity);
  }

  push(event: T): void {
    if (this.queue.length >= this.capacity) {
      this.dropped(1);
      return;
    }
    this.queue.push(event);
    if (this.writing) return; // the write under way looks at the queue when it ends
    if (this.queue.length === this.batchSize) this.schedule(0);
    else if (!this.timer) this.schedule(this.limits.maxWaitMs);
  }

  /** Writes everything held now (at shutdown). */
  async flush(): Promise<void> {
    while (this.writing || this.queue.length > 0) await (this.writing ?? this.drain(true));
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.drain(false), delayMs);
  }

  /** Writes batches while full ones wait (all of them when `everything`); what is left waits for its timer. */
  private drain(everything: boolean): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.writing ??= (async () => {
      do {
        const batch = this.queue.splice(0, this.batchSize);
        try {
          await this.write(batch);
        } catch (error) {
          this.dropped(batch.length);
          this.logger.error({ message: 'audit events could not be written', count: batch.length, error: (error as Error).message });
        }
      } while (this.queue.length >= (everything ? 1 : this.batchSize));
    })().finally(() => {
      this.writing = undefined;
      if (this.queue.length > 0) this.schedule(this.limits.maxWaitMs);
    });
    return this.writing;
  }
}
