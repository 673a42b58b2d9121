/** Injection token of this instance's pg connection pool. */
export const PG_POOL = Symbol('PG_POOL');
/** Injection token of the connection string the server was started with. */
export const DATABASE_URL = Symbol('DATABASE_URL');
