import { Pool, PoolClient } from 'pg';

/** What PostgreSQL warns when a COMMIT stopped waiting for a synchronous standby: committed here, not replicated. */
const REPLICATION_WAIT_CUT = /synchronous replication/i;

/** Whether a notice says the commit it came with stopped waiting for the synchronous standby. */
export function replicationWaitCut(notice: { message?: string }): boolean {
  return REPLICATION_WAIT_CUT.test(notice.message ?? '');
}

const ignore = () => undefined;

/**
 * A connection of the pool for a caller that handles its failures through its statements: the connection's own
 * `error` event (a lost connection, reported again after the statement failed) must not end the process.
 */
export async function checkOut(pool: Pool): Promise<PoolClient> {
  const client = await pool.connect();
  client.on('error', ignore);
  return client;
}

/** Returns a connection of checkOut to the pool, or closes it when it is broken. */
export function giveBack(client: PoolClient, broken: boolean): void {
  client.off('error', ignore);
  client.release(broken || undefined);
}

/** A statement that got no answer within its bound: its connection was closed. */
export class NoAnswerInTime extends Error {}

/** A probe write whose COMMIT stopped waiting for the synchronous standby: it is not replicated. */
export class ReplicationWaitCut extends Error {}

/**
 * Runs `work` on a connection of its own and gives the connection up (closes it) when `work` has not ended within
 * `timeoutMs`, which fails a statement still waiting for an answer: whatever it waited for ends with the connection.
 */
export async function onBoundedConnection<T>(pool: Pool, timeoutMs: number, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await checkOut(pool);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void client.end().catch(() => undefined);
  }, timeoutMs);
  try {
    return await work(client);
  } catch (error) {
    throw timedOut ? new NoAnswerInTime(`no answer within ${timeoutMs} ms (${(error as Error)?.message ?? error})`) : error;
  } finally {
    clearTimeout(timer);
    giveBack(client, timedOut);
  }
}

/**
 * Resolves once a tiny transaction committed on the database, through the same path as every write (a synchronous
 * standby's acknowledgement when the database asks for one); rejects when it did not within `timeoutMs`, when the
 * database is read-only or unreachable, or when its COMMIT stopped waiting for the standby.
 */
export function probeWrite(pool: Pool, timeoutMs: number): Promise<void> {
  return onBoundedConnection(pool, timeoutMs, async (client) => {
    let cut = false;
    const onNotice = (notice: { message?: string }) => (cut ||= replicationWaitCut(notice));
    client.on('notice', onNotice);
    try {
      await client.query({
        name: 'write-probe',
        text: `WITH pruned AS (DELETE FROM write_probe WHERE ctid IN (
                 SELECT ctid FROM write_probe WHERE written_at < now() - interval '1 minute' FOR UPDATE SKIP LOCKED))
               INSERT INTO write_probe DEFAULT VALUES`,
      });
    } finally {
      client.off('notice', onNotice);
    }
    if (cut) throw new ReplicationWaitCut('the commit stopped waiting for the synchronous standby');
  });
}
