import { isDatabaseUnavailable } from './database-errors';

const FIRST_WAIT_MS = 100;
const LONGEST_WAIT_MS = 1000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` again, after waits that double from 100 ms to 1 s, while it fails because the database is
 * unreachable or cannot write now (a restart, a failover), for at most `budgetMs`; then its last error. Only for
 * what is safe to repeat: reads, and writes that certainly did not commit.
 */
export async function retryWhileUnavailable<T>(budgetMs: number, attempt: () => Promise<T>): Promise<T> {
  const until = Date.now() + budgetMs;
  for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() + wait > until) throw error;
      await pause(wait);
    }
  }
}
