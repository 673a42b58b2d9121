import { Path } from '../table/table-column';
import { ListKey } from './continue-token';
import { projectedBody } from './projection-sql';
import { SqlCondition, SqlParams } from './sql-params';

/** Where a kind's objects live: the (api_group, resource) pair of the `objects` table. */
export interface StorageKey {
  group: string;
  resource: string;
}

/** Which part of which state a list reads. */
export interface ListRange {
  /** the state at this resourceVersion, rebuilt from the change log; unset: the newest state */
  at?: bigint;
  /** only objects after this key (a continued list) */
  after?: ListKey;
  /** at most this many objects (one more is read, to tell whether the list goes on) */
  limit?: number;
}

/**
 * What a list reads of each object: its body parsed into an object, or for output as JSON text in parts, its
 * metadata and its other members (without kind and apiVersion, which list items do not carry), so that the server
 * only parses the metadata, to add the selfLink and resourceVersion, and copies the rest as PostgreSQL wrote it.
 * The managed fields, most of an object's metadata, are a part of their own, copied too; not for a projection (a
 * Table's rows), whose items are parsed whole anyway.
 */
const LIST_COLUMNS = {
  objects: () => 'namespace, name, resource_version, body',
  output: (params: SqlParams, projection?: readonly Path[]) => {
    if (projection) {
      const body = `(${projectedBody(projection, params)})`;
      return `namespace, name, resource_version, (${body}->'metadata')::text AS metadata, NULL AS managed_fields, (${body} - '{kind,apiVersion,metadata}'::text[])::text AS rest`;
    }
    return `namespace, name, resource_version, ((body->'metadata') - 'managedFields')::text AS metadata, (body->'metadata'->'managedFields')::text AS managed_fields, (body - '{kind,apiVersion,metadata}'::text[])::text AS rest`;
  },
};

export type ListForm = keyof typeof LIST_COLUMNS;

/**
 * The state of a kind at a past resourceVersion S: the objects not changed since S, and for each key changed after
 * S the state its first change after S replaced (the previous state of a MODIFIED, the last state of a DELETED;
 * a key whose first change is an ADDED did not exist at S). Complete while S is not below the compaction horizon.
 * The filters and the order (with the limit) are applied in each part as well as to the whole: each part is then
 * read in key order, `objects` along its primary key, and merged, instead of the whole state being built and sorted.
 */
function stateAt(scope: string, at: string, filters: readonly string[], order: string): string {
  const and = filters.map((filter) => ` AND ${filter}`).join('');
  return `(SELECT namespace, name, resource_version, body FROM objects WHERE ${scope} AND resource_version <= ${at}${and} ${order})
           UNION ALL
           (SELECT namespace, name, resource_version, body FROM (
             SELECT DISTINCT ON (namespace, name) namespace, name, event_type, p.previous_resource_version AS resource_version,
                    CASE event_type WHEN 'MODIFIED' THEN previous_object ELSE object END AS body
             FROM change_log c LEFT JOIN change_log_previous_versions p USING (resource_version)
             WHERE ${scope} AND c.resource_version > ${at}
             ORDER BY namespace, name, c.resource_version
           ) first_change WHERE event_type <> 'ADDED'${and} ${order})`;
}

/** The newest committed resourceVersion and the compaction horizon, as the snapshot the statement runs in sees them. */
const SNAPSHOT = `SELECT COALESCE(MAX(resource_version), 0)::text AS newest_version,
                    (SELECT compacted_through FROM change_log_compaction)::text AS compacted_through
             FROM change_log`;

/** The objects of a list, in key order: the rows of `objects` or of the rebuilt state, filtered by the conditions. */
function rowsQuery(
  params: SqlParams,
  key: StorageKey,
  namespace: string | undefined,
  conditions: readonly SqlCondition[],
  form: ListForm,
  range: ListRange,
  projection?: readonly Path[],
): string {
  const scope = [`api_group = ${params.add(key.group)}`, `resource = ${params.add(key.resource)}`];
  if (namespace !== undefined) scope.push(`namespace = ${params.add(namespace)}`);
  const at = range.at === undefined ? undefined : `${params.add(range.at.toString())}::bigint`;
  const filters: string[] = [];
  if (range.after) filters.push(`(namespace, name) > (${params.add(range.after.namespace)}, ${params.add(range.after.name)})`);
  for (const condition of conditions) filters.push(`(${condition(params)})`);
  const order = `ORDER BY namespace, name${range.limit === undefined ? '' : ` LIMIT ${params.add(range.limit + 1)}`}`;
  const columns = LIST_COLUMNS[form](params, projection);
  if (at === undefined) return `SELECT ${columns} FROM objects WHERE ${[...scope, ...filters].join(' AND ')} ${order}`;
  return `SELECT ${columns} FROM (${stateAt(scope.join(' AND '), at, filters, order)}) state ${order}`;
}

/**
 * The statement of a list (exported so that a benchmark can EXPLAIN exactly what the server runs): the objects in
 * key order, with, read in the same snapshot, the newest committed resourceVersion and the compaction horizon.
 * Selectors are conditions on the rows of `objects` (and of the rebuilt state), so their indexes serve them.
 */
export function listStatement(
  key: StorageKey,
  namespace: string | undefined,
  conditions: readonly SqlCondition[],
  form: ListForm,
  range: ListRange = {},
  projection?: readonly Path[],
) {
  const params = new SqlParams();
  const rows = rowsQuery(params, key, namespace, conditions, form, range, projection);
  return {
    text: `SELECT snapshot.*, o.*
       FROM (${SNAPSHOT}) snapshot
       LEFT JOIN LATERAL (
         ${rows}
       ) o ON true`,
    values: params.values,
  };
}

/**
 * The same list as two statements, for a read through a cursor: `snapshot` first, then `rows` in the same
 * transaction (REPEATABLE READ, so both see one snapshot).
 */
export function cursorStatements(
  key: StorageKey,
  namespace: string | undefined,
  conditions: readonly SqlCondition[],
  range: ListRange = {},
  projection?: readonly Path[],
) {
  const params = new SqlParams();
  const rows = rowsQuery(params, key, namespace, conditions, 'output', range, projection);
  return { snapshot: SNAPSHOT, rows: { text: rows, values: params.values } };
}
