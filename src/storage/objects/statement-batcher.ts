/** What one request of a batch came to: its result, or its own error. */
export type Outcome<Result> = { value: Result } | { error: unknown };

/** Sends the requests of one batch as one statement; a rejection fails every request of the batch. */
export type SendBatch<Item, Result> = (items: Item[]) => Promise<Outcome<Result>[]>;

interface Waiting<Item, Result> {
  item: Item;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/**
 * Batching of the store's statements (etcd's batched puts; a group commit): at most `lanes` statements in flight; the
 * requests that arrive while none is free wait, and the first lane to finish sends them all together as its next
 * statement. A request that finds a lane free goes at once, alone, so a lone client waits no longer than without.
 */
export class StatementBatcher<Item, Result> {
  private waiting: Waiting<Item, Result>[] = [];
  private inFlight = 0;

  constructor(
    private readonly lanes: number,
    private readonly send: SendBatch<Item, Result>,
    private readonly observeBatch: (size: number) => void,
  ) {}

  run(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.inFlight < this.lanes) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.inFlight++;
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      this.observeBatch(batch.length);
      try {
        const outcomes = await this.send(batch.map((waiting) => waiting.item));
        batch.forEach((waiting, i) => {
          const outcome = outcomes[i];
          if ('error' in outcome) waiting.reject(outcome.error);
          else waiting.resolve(outcome.value);
        });
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    this.inFlight--;
  }
}
