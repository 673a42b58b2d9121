import autocannon from 'autocannon';

export interface LoadRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface LoadOptions {
  url: string;
  connections: number;
  /** how long to send requests */
  seconds: number;
  /** stop after this many requests (or after `seconds`, whichever comes first) */
  amount?: number;
  /** the n-th request (n counts from 0 across all connections) */
  request(n: number): LoadRequest;
  /** told of each 2xx response as it comes */
  answered?(): void;
}

export interface LoadResult {
  /** responses with a 2xx status */
  ok: number;
  /** other responses and failed connections */
  errors: number;
  statuses: Record<string, number>;
  rps: number;
  /** latency percentiles of the 2xx responses, in ms */
  p50: number;
  p99: number;
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Drives the server with autocannon, `connections` clients each sending its next request when the last is answered,
 * and measures latency to the microsecond (autocannon's own histogram counts whole milliseconds).
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  let next = 0;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const started = process.hrtime.bigint();
  const settings: autocannon.Options = {
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    // autocannon's `amount` outranks `duration`; a count bound is kept by stopping below instead.
    requests: [
      {
        setupRequest: (request: autocannon.Request) => {
          const { method, path, body, headers } = options.request(next++);
          return { ...request, method, path, body, headers: { 'content-type': 'application/json', ...headers } };
        },
      },
    ],
  };
  let instance!: autocannon.Instance;
  const finished = new Promise<void>((resolve, reject) => {
    instance = autocannon(settings, (error) => (error ? reject(error) : resolve()));
  });
  let answered = 0;
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (options.amount !== undefined && answered >= options.amount) return;
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status >= 200 && status < 300) {
      latencies.push(ms);
      options.answered?.();
    } else errors++;
    if (options.amount !== undefined && ++answered >= options.amount) instance.stop();
  });
  instance.on('reqError', () => errors++);
  await finished;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  return {
    ok: latencies.length,
    errors,
    statuses,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}
