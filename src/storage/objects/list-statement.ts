import { JsonPath, ListQuery } from './list-query';
import { StorageKey } from './object-key';
import { projectedBody } from './projection-sql';
import { outputColumns, ReadForm } from './read-form';
import { selectionConditions } from './selection-sql';
import { SqlParams } from './sql-params';

/** The body a list reads: the whole `body` column, or only the paths the query's projection names. */
const bodyOf = (params: SqlParams, projection?: readonly JsonPath[]) => (projection ? `(${projectedBody(projection, params)})` : 'body');

/** What a list reads of each object, in each read form. */
const LIST_COLUMNS: Record<ReadForm, (params: SqlParams, query: ListQuery) => string> = {
  object: (params, { projection }) => `namespace, name, resource_version, ${projection ? `${bodyOf(params, projection)} AS body` : 'body'}`,
  output: (params, { projection, storedVersions }) => `namespace, name, resource_version, ${outputColumns(bodyOf(params, projection), storedVersions)}`,
};

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

/** The objects of a list, in key order: the rows of `objects` or of the rebuilt state, filtered by the selection. */
function rowsQuery(params: SqlParams, key: StorageKey, query: ListQuery, form: ReadForm): string {
  const scope = [`api_group = ${params.add(key.group)}`, `resource = ${params.add(key.resource)}`];
  if (query.namespace !== undefined) scope.push(`namespace = ${params.add(query.namespace)}`);
  const at = query.at === undefined ? undefined : `${params.add(query.at.toString())}::bigint`;
  const filters: string[] = [];
  if (query.after) filters.push(`(namespace, name) > (${params.add(query.after.namespace)}, ${params.add(query.after.name)})`);
  for (const condition of selectionConditions(query)) filters.push(`(${condition(params)})`);
  const order = `ORDER BY namespace, name${query.limit === undefined ? '' : ` LIMIT ${params.add(query.limit + 1)}`}`;
  const columns = LIST_COLUMNS[form](params, query);
  if (at === undefined) return `SELECT ${columns} FROM objects WHERE ${[...scope, ...filters].join(' AND ')} ${order}`;
  return `SELECT ${columns} FROM (${stateAt(scope.join(' AND '), at, filters, order)}) state ${order}`;
}

/**
 * The statement of a list (exported so that a benchmark can EXPLAIN exactly what the server runs): the objects in
 * key order, with, read in the same snapshot, the newest committed resourceVersion and the compaction horizon.
 * The selection's requirements are conditions on the rows of `objects` (and of the rebuilt state), so their indexes
 * serve them.
 */
export function listStatement(key: StorageKey, query: ListQuery, form: ReadForm) {
  const params = new SqlParams();
  const rows = rowsQuery(params, key, query, form);
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
export function cursorStatements(key: StorageKey, query: ListQuery) {
  const params = new SqlParams();
  const rows = rowsQuery(params, key, query, 'output');
  return { snapshot: SNAPSHOT, rows: { text: rows, values: params.values } };
}
