/** Injection token of this instance's pg connection pool. */
export const PG_POOL = Symbol('PG_POOL');
/** Injection token of the connection string the server was started with. */
export const DATABASE_URL = Symbol('DATABASE_URL');
/** Injection token of the pool for reads that may be stale: a streaming standby's (DATABASE_READ_URL), or PG_POOL. */
export const READ_POOL = Symbol('READ_POOL');
