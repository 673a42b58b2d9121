import { isDatabaseUnavailable } from './database-errors';

/**
 * The waits poll the outage rather than back off far: a failover ends at a moment nothing announces, and each wait
 * past it is time the API stays unwritable (a wait that had doubled to 1 s cost up to 1 s after the new primary took
 * writes). A failed attempt is cheap: a refused or closed connection, mostly.
 */
const FIRST_WAIT_MS = 50;
const LONGEST_WAIT_MS = 250;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` again, after waits that double from 50 ms to 250 ms, while it fails because the database is
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
