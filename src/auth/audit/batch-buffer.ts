import { Logger } from '@nestjs/common';

const FLUSH_DELAY_MS = 50;

/**
 * Holds events for one audit sink and writes them in batches off the request path. It holds at most `capacity`:
 * beyond that, and when a write fails, events are dropped and counted, so a slow sink never slows requests or grows
 * memory without bound.
 */
export class BatchBuffer<T> {
  private readonly logger: Logger;
  private queue: T[] = [];
  private timer?: NodeJS.Timeout;
  private writing?: Promise<void>;

  constructor(
    name: string,
    private readonly capacity: number,
    private readonly maxBatch: number,
    private readonly write: (batch: T[]) => Promise<void>,
    private readonly dropped: (count: number) => void,
  ) {
    this.logger = new Logger(`Audit:${name}`);
  }

  push(event: T): void {
    if (this.queue.length >= this.capacity) {
      this.dropped(1);
      return;
    }
    this.queue.push(event);
    if (!this.timer && !this.writing) this.timer = setTimeout(() => void this.drain(), FLUSH_DELAY_MS);
  }

  /** Writes everything held now (at shutdown). */
  async flush(): Promise<void> {
    await this.writing;
    await this.drain();
  }

  private drain(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.writing ??= (async () => {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          await this.write(batch);
        } catch (error) {
          this.dropped(batch.length);
          this.logger.error({ message: 'audit events could not be written', count: batch.length, error: (error as Error).message });
        }
      }
    })().finally(() => (this.writing = undefined));
    return this.writing;
  }
}
