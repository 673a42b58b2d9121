import { Pool } from 'pg';
import { isDatabaseUnavailable } from './database-errors';
import { NoAnswerInTime, probeWrite, ReplicationWaitCut } from './write-probe';

export type CommitOutcome = 'committed' | 'not-committed' | 'unknown';

/** What is known of a transaction whose COMMIT got no answer: its id (`txid_current()`) and the versions it wrote. */
export interface LostCommit {
  txid: string;
  /** resourceVersions of the change-log rows it inserted, when it inserted any */
  changeVersions: string[];
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ASK_EVERY_MS = 200;
/** PostgreSQL's answer for a transaction id its history has not reached: a primary that never saw the transaction. */
const FUTURE_XID = /is in the future/;

/**
 * Learns the outcome of a transaction whose COMMIT met a lost connection by asking the primary (the same, or the one
 * promoted meanwhile) about its id, until `deadline` (epoch ms). `committed` needs three answers: `txid_status` says
 * committed and no backend holds it any longer (one still waiting for a synchronous standby has its commit in
 * `pg_xact` but not yet visible); the change-log rows it wrote are there with its id as their xmin (a primary promoted from a standby that
 * lacked the transaction may have handed the same id to another one); and a write probe committed after it (a
 * synchronous standby acknowledges commits in order, so the transaction is replicated too). An id the primary never
 * reached, or one it aborted, did not commit.
 */
export async function resolveLostCommit(pool: Pool, lost: LostCommit, deadline: number): Promise<CommitOutcome> {
  while (Date.now() < deadline) {
    try {
      const { rows } = await pool.query<{ standby: boolean; status: string | null; held: boolean; written: boolean }>({
        text: `SELECT pg_is_in_recovery() AS standby, txid_status($1::bigint) AS status,
                      EXISTS (SELECT 1 FROM pg_stat_activity WHERE backend_xid::text = ($1::bigint % 4294967296)::text) AS held,
                      EXISTS (SELECT 1 FROM change_log WHERE resource_version = ANY($2::bigint[])
                              AND xmin::text::bigint = $1::bigint % 4294967296) AS written`,
        values: [lost.txid, lost.changeVersions],
      });
      const [{ standby, status, held, written }] = rows;
      if (!standby && held) {
        // Its backend still waits for the synchronous standby, which acknowledges only when it receives more WAL
        // (or after wal_receiver_status_interval): a write after it gets both acknowledged once the standby answers.
        await probeWrite(pool, Math.max(deadline - Date.now(), 1));
        continue;
      }
      if (!standby && status !== 'in progress') {
        if (status !== 'committed' || (lost.changeVersions.length > 0 && !written)) return 'not-committed';
        await probeWrite(pool, Math.max(deadline - Date.now(), 1));
        return 'committed';
      }
    } catch (error) {
      if (FUTURE_XID.test((error as Error)?.message ?? '')) return 'not-committed';
      const passing = isDatabaseUnavailable(error) || error instanceof NoAnswerInTime || error instanceof ReplicationWaitCut;
      if (!passing) throw error;
    }
    await pause(ASK_EVERY_MS);
  }
  return 'unknown';
}
