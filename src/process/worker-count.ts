import { availableParallelism } from 'node:os';

/** The number of server processes `WORKERS` asks for: `auto` is one per core (as Node counts them), else the number. */
export function workerCount(workers: string): number {
  return workers === 'auto' ? availableParallelism() : Number(workers);
}
