import { DatabaseError } from 'pg';

/** SQLSTATE of a resourceVersion refused on a timeline pgkube has not adopted (migration 0025): nothing committed. */
export const HISTORY_NOT_ADOPTED = 'PKH01';

const CONNECTION_MESSAGES = ['Connection terminated', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'timeout exceeded when trying to connect'];

/**
 * A write whose COMMIT was sent but whose outcome the server could not learn within its bound (the connection was
 * lost and no primary answered about the transaction, or the commit waited too long for a synchronous standby).
 */
export class WriteOutcomeUnknown extends Error {
  constructor(readonly cause: string) {
    super(`the outcome of the write is unknown: ${cause}`);
  }
}

/** A write that certainly did not commit because of the database's state (an outage, a failover, a rollback). */
export class WriteNotCommitted extends Error {
  constructor(readonly cause: string) {
    super(`the write did not commit: ${cause}`);
  }
}

/**
 * SQLSTATEs that say the database cannot take the statement now, whatever the statement: class 08 (connection
 * exception, by prefix), 57P01–57P03 (administrator shutdown, crash shutdown, cannot connect now: a restart or a
 * standby still starting), 25006 (read-only transaction: a demoted primary or a standby behind the proxy), 53300
 * (too many connections), and pgkube's own PKH01 (a promoted standby's timeline not adopted yet, migration 0025).
 */
const OUTAGE_CODES = ['57P01', '57P02', '57P03', '25006', '53300', HISTORY_NOT_ADOPTED];

/**
 * Why the database could not be reached or cannot write now (refused, dropped or administratively terminated
 * connections, a server in recovery or read-only, a pool that found no connection in time), as the log should name
 * it: `57P01 terminating connection due to administrator command`; undefined for errors of a statement itself.
 */
export function databaseOutageCause(error: unknown): string | undefined {
  if (error instanceof WriteNotCommitted) return error.cause;
  if (error instanceof WriteOutcomeUnknown) return undefined;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  if (typeof code === 'string' && (code.startsWith('08') || OUTAGE_CODES.includes(code))) return `${code} ${text}`;
  if (CONNECTION_MESSAGES.some((m) => text.includes(m))) return typeof code === 'string' ? `${code} ${text}` : text;
  return undefined;
}

/**
 * SQLSTATE classes and codes an ErrorResponse can carry when it may come after the transaction committed locally: a
 * connection exception (08), the server shutting down or crashing (57P01, 57P02: a commit waiting for the synchronous
 * standby is terminated so), a system error (58) or an internal one (XX).
 */
const AFTER_COMMIT_CLASSES = ['08', '58', 'XX'];
const AFTER_COMMIT_CODES = ['57P01', '57P02', '57P03'];

/**
 * True when PostgreSQL answered an autocommit statement with an error that rolled its transaction back (a value it
 * cannot store, a read-only server, a cancel before the commit): nothing of it committed. Decided by SQLSTATE, never
 * by message text (which is translated); false for anything else, whose outcome is not known.
 */
export function statementRolledBack(error: unknown): boolean {
  if (!(error instanceof DatabaseError) || typeof error.code !== 'string') return false;
  return !AFTER_COMMIT_CLASSES.includes(error.code.slice(0, 2)) && !AFTER_COMMIT_CODES.includes(error.code);
}

/** True for failures to reach PostgreSQL or to write on it now, as opposed to errors of a statement. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return databaseOutageCause(error) !== undefined;
}

