import { isControllerEnabled } from '../../src/controller-manager/enabled-controllers';
import { Registry } from 'prom-client';
import { BucketRateLimiter, ItemExponentialFailureRateLimiter } from '../../src/controller-manager/rate-limiter';
import { ControllerMetrics } from '../../src/controller-manager/controller-metrics';
import { WorkQueue } from '../../src/controller-manager/work-queue';
import { ServerMetrics } from '../../src/metrics/server-metrics';

describe('--controllers', () => {
  it.each([
    ['*', 'garbagecollector', true],
    ['*,-garbagecollector', 'garbagecollector', false],
    ['*,-garbagecollector', 'namespace', true],
    ['namespace', 'garbagecollector', false],
    ['namespace', 'namespace', true],
    ['-namespace,*', 'namespace', false],
    ['', 'namespace', false],
  ])('%j runs %s: %s', (controllers, name, enabled) => {
    expect(isControllerEnabled(name, controllers)).toBe(enabled);
  });
});

describe("client-go's rate limiters", () => {
  it('doubles a key\'s delay from 5 ms at each failure up to the maximum, and forgets it on success', () => {
    const limiter = new ItemExponentialFailureRateLimiter(5, 1000_000);
    expect([1, 2, 3, 4].map(() => limiter.when('a'))).toEqual([5, 10, 20, 40]);
    expect(limiter.when('b')).toBe(5);
    for (let i = 0; i < 40; i++) limiter.when('a');
    expect(limiter.when('a')).toBe(1000_000);
    limiter.forget('a');
    expect(limiter.when('a')).toBe(5);
  });

  it('lets a burst of 100 through at once, then 10 a second', () => {
    jest.useFakeTimers({ now: 0 });
    const limiter = new BucketRateLimiter(10, 100);
    for (let i = 0; i < 100; i++) expect(limiter.when()).toBe(0);
    expect(limiter.when()).toBe(100);
    expect(limiter.when()).toBe(200);
    jest.setSystemTime(1000);
    expect(limiter.when()).toBe(0);
    jest.useRealTimers();
  });
});

describe('the work queue', () => {
  const synced: string[] = [];
  const metrics = new ControllerMetrics({ registry: new Registry() } as unknown as ServerMetrics);
  const queue = new WorkQueue('test', new ItemExponentialFailureRateLimiter(5, 1000), metrics, async (key) => void synced.push(key));
  afterAll(() => queue.shutdown());

  it('waits a delay longer than a timer holds rather than adding at once, and adds nothing for a time that did not parse', async () => {
    queue.addAfter('in-30-days', 30 * 24 * 3600 * 1000);
    queue.addAfter('unparsed', Number.NaN);
    queue.addAfter('soon', 20);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(synced).toEqual(['soon']);
  });
});
