/** Why a resourceVersion that an earlier history of the database handed out is refused (410). */
export const lostVersion = (version: string | bigint): string =>
  `too old resource version: ${version} belongs to a history the database no longer has (a failover or a restore lost it); list again`;
