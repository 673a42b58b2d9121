import { Pool } from 'pg';
import { isDatabaseUnavailable } from './database-errors';
import { NoAnswerInTime, onBoundedConnection, probeWrite, ReplicationWaitCut } from './write-probe';

/** What became of a lost write batch: when it committed, the versions it answered (kept with its fence). */
export type CommitOutcome = { outcome: 'committed'; versions: (string | null)[] } | { outcome: 'not-committed' | 'unknown' };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Between questions while no primary answers: the writes queued behind the lost batch wait for its outcome. */
const ASK_EVERY_MS = 50;
/**
 * How long one question may wait: a connection of the pool may lead to a server that no longer answers (a partitioned
 * old primary), and a write waiting for the synchronous standby is acknowledged only once more WAL reaches it, which
 * the probe write beside each question sends.
 */
const ONE_QUESTION_MS = 1500;
const TAKE_FENCE = 'INSERT INTO write_fences (token) VALUES ($1) ON CONFLICT DO NOTHING RETURNING 1';
const FENCE_VERSIONS = 'SELECT versions::text[] AS versions FROM write_fences WHERE token = $1';

/**
 * Learns, by `deadline` (epoch ms), whether the write batch that carried `fence` committed, by inserting that token
 * into write_fences (migration 0021) on a connection of its own. The insert waits behind the batch's transaction while
 * it is in flight (committed locally and waiting for the synchronous standby included); no row inserted means the
 * batch committed (its fence row holds its versions), and a probe write committed after it says the standby has it too (a synchronous standby
 * acknowledges in order); a fence row without versions is an earlier question's own insert whose answer was lost, so the
 * batch did not commit. A row inserted means it did not commit here and never can, even if the fence itself is not
 * replicated (a standby promoted later lacks the batch as well). Unknown when no server answered in time, or on an
 * error that says nothing of the batch (which ends the asking at once).
 */
export async function resolveLostWrite(pool: Pool, fence: string, deadline: number): Promise<CommitOutcome> {
  for (let left = deadline - Date.now(); left > 0; left = deadline - Date.now()) {
    const bound = Math.min(left, ONE_QUESTION_MS);
    const nudge = probeWrite(pool, bound).catch(() => undefined);
    try {
      const versions = await onBoundedConnection(pool, bound, async (client) => {
        const { rowCount } = await client.query({ name: 'write-fence', text: TAKE_FENCE, values: [fence] });
        if (rowCount === 1) return undefined;
        const { rows } = await client.query<{ versions: (string | null)[] }>({ name: 'write-fence-versions', text: FENCE_VERSIONS, values: [fence] });
        // No versions: the fence is this resolution's own, inserted by an earlier question whose answer was lost.
        return rows[0].versions ?? undefined;
      });
      if (versions === undefined) return { outcome: 'not-committed' };
      await probeWrite(pool, Math.max(deadline - Date.now(), 1));
      return { outcome: 'committed', versions };
    } catch (error) {
      // No answer in time, no server, a read-only one, or a commit not replicated: ask again while time is left.
      const passing = isDatabaseUnavailable(error) || error instanceof NoAnswerInTime || error instanceof ReplicationWaitCut;
      if (!passing) return { outcome: 'unknown' };
    } finally {
      await nudge;
    }
    await pause(Math.min(ASK_EVERY_MS, Math.max(deadline - Date.now(), 0)));
  }
  return { outcome: 'unknown' };
}
