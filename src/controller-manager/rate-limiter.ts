/** How long a key waits before its next try (client-go's workqueue rate limiters). */
export interface RateLimiter {
  /** the delay of the key's next try after a failure; each call counts one more failure */
  when(key: string): number;
  /** the key succeeded: its failures are forgotten */
  forget(key: string): void;
}

/** Per key: `baseMs` doubled at each consecutive failure, at most `maxMs`. */
export class ItemExponentialFailureRateLimiter implements RateLimiter {
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
  ) {}

  when(key: string): number {
    const failures = this.failures.get(key) ?? 0;
    this.failures.set(key, failures + 1);
    return Math.min(this.maxMs, this.baseMs * 2 ** failures);
  }

  forget(key: string): void {
    this.failures.delete(key);
  }
}

/** Over all keys: a token bucket of `burst` tokens refilled at `qps` a second. */
export class BucketRateLimiter implements RateLimiter {
  private tokens: number;
  private at = Date.now();

  constructor(
    private readonly qps: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  when(): number {
    const now = Date.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) * this.qps) / 1000) - 1;
    this.at = now;
    return this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.qps;
  }

  forget(): void {}
}

/** The longest delay of several limiters. */
export class MaxOfRateLimiter implements RateLimiter {
  private readonly limiters: RateLimiter[];

  constructor(...limiters: RateLimiter[]) {
    this.limiters = limiters;
  }

  when(key: string): number {
    return Math.max(...this.limiters.map((limiter) => limiter.when(key)));
  }

  forget(key: string): void {
    for (const limiter of this.limiters) limiter.forget(key);
  }
}

/** client-go's DefaultControllerRateLimiter with the per-key maximum given: 5 ms doubling up to `maxMs`, and 10 qps (burst 100) overall. */
export const controllerRateLimiter = (maxMs: number): RateLimiter =>
  new MaxOfRateLimiter(new ItemExponentialFailureRateLimiter(5, maxMs), new BucketRateLimiter(10, 100));

/** client-go's DefaultControllerRateLimiter: up to 1000 s per key. */
export const defaultControllerRateLimiter = (): RateLimiter => controllerRateLimiter(1000_000);
