const CONNECTION_MESSAGES = ['Connection terminated', 'ECONNREFUSED', 'ECONNRESET', 'timeout exceeded when trying to connect'];

/**
 * True for failures to reach PostgreSQL (refused, dropped or administratively terminated connections), as opposed to
 * errors of a statement: SQLSTATE class 08 (connection exception) and 57P01–57P03 (shutdown), or the pg driver's
 * own connection errors.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (code.startsWith('08') || ['57P01', '57P02', '57P03'].includes(code))) return true;
  return typeof message === 'string' && CONNECTION_MESSAGES.some((m) => message.includes(m));
}
