import { Pool, PoolClient } from 'pg';

/**
 * Whether a notice that came with a write may say that its commit stopped waiting for the synchronous standby
 * (committed here, perhaps not replicated): PostgreSQL sends that as a warning of SQLSTATE class 01 (01000 for a
 * cancel, no narrower code). The writes here raise no other warning, so any warning counts; message text is never
 * read (it is translated).
 */
export function replicationWaitCut(notice: { code?: string }): boolean {
  return notice.code?.startsWith('01') ?? false;
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

/**
 * Returns a connection of checkOut to the pool, or closes it when it is broken (which keeps ignoring its errors: a
 * socket closed late may still report one).
 */
export function giveBack(client: PoolClient, broken: boolean): void {
  if (!broken) client.off('error', ignore);
  client.release(broken || undefined);
}

/** A statement that got no answer within its bound: its connection was closed. */
export class NoAnswerInTime extends Error {}

/** A probe write whose COMMIT stopped waiting for the synchronous standby: it is not replicated. */
export class ReplicationWaitCut extends Error {}

/**
 * Runs `work` on a connection of its own, and answers within `timeoutMs` from the call, the wait for a connection
 * included: past it, NoAnswerInTime, and the connection is closed (a statement still running on it ends with it;
 * a connection that comes later goes back closed).
 */
export async function onBoundedConnection<T>(pool: Pool, timeoutMs: number, work: (client: PoolClient) => Promise<T>): Promise<T> {
  let client: PoolClient | undefined;
  let timedOut = false;
  let expire: (error: Error) => void = ignore;
  const expired = new Promise<never>((_, reject) => (expire = reject));
  const timer = setTimeout(() => {
    timedOut = true;
    void client?.end().catch(ignore);
    expire(new NoAnswerInTime(`no answer within ${timeoutMs} ms`));
  }, timeoutMs);
  const connecting = checkOut(pool);
  try {
    client = await Promise.race([connecting, expired]);
    const working = work(client);
    working.catch(ignore);
    return await Promise.race([working, expired]);
  } catch (error) {
    throw timedOut && !(error instanceof NoAnswerInTime) ? new NoAnswerInTime(`no answer within ${timeoutMs} ms (${(error as Error)?.message ?? error})`) : error;
  } finally {
    clearTimeout(timer);
    if (client) giveBack(client, timedOut);
    else void connecting.then((late) => giveBack(late, true), ignore);
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
    const onNotice = (notice: { code?: string }) => (cut ||= replicationWaitCut(notice));
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
