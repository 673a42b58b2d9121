import { JsonPath, ListQuery } from './list-query';
import { StorageKey } from './object-key';
import { projectedBody } from './projection-sql';
import { outputColumns, ReadForm } from './read-form';
import { labelValueKeys, selectionConditions, selectsLabelValues } from './selection-sql';
import { SqlParams } from './sql-params';

/** The body a list reads: the whole `body` column, or only the paths the query's projection names. */
const bodyOf = (params: SqlParams, projection?: readonly JsonPath[]) => (projection ? `(${projectedBody(projection, params)})` : 'body');

/**
 * What a list reads of each object, in each read form; `known`, the resourceVersions of the items the reader holds
 * already, which are read without their texts (output form only: see outputColumns).
 */
const LIST_COLUMNS: Record<ReadForm, (params: SqlParams, query: ListQuery, known: readonly string[]) => string> = {
  object: (params, { projection }) => `namespace, name, resource_version, ${projection ? `${bodyOf(params, projection)} AS body` : 'body'}`,
  output: (params, { projection, storedVersions }, known) =>
    `namespace, name, resource_version, ${outputColumns(bodyOf(params, projection), storedVersions, known.length > 0 ? `resource_version = ANY(${params.add(known)}::bigint[])` : undefined)}`,
};

/** How the rows of a list are ordered and cut. */
interface Ordering {
  /**
   * the key columns: namespace and name, or the name alone within one namespace (the planner knows the namespace is
   * fixed inside a subquery, not in the query around it, which would otherwise sort the subquery's rows again)
   */
  keys: string;
  /** the placeholder of the number of rows read (one beyond the page), when the list is a page */
  limit?: string;
  /** whether the page's keys are chosen before its rows are read (see objectsInKeyOrder) */
  keysFirst: boolean;
}

const orderBy = ({ keys, limit }: Ordering) => `ORDER BY ${keys}${limit === undefined ? '' : ` LIMIT ${limit}`}`;

/**
 * `columns` of the objects `conditions` select, in key order. A page of a selection has its keys chosen first: the
 * matching rows ordered and cut on their key columns alone, then only the kept rows read again, by their row address
 * in the statement's snapshot, for `columns`. A label selection here (`app!=web`, `canary`, or several requirements
 * of values: see rowsQuery) is read from its GIN index, unordered, and sorted: read at once, every match's
 * output columns were computed before the sort kept a page of them (10,000 rows' for 500 at 1 % of 1,000,000
 * Deployments, tens of microseconds each). A page without a selection walks the primary key in order and stops at
 * the limit, so only the kept rows' columns are computed anyway: reading them twice would only cost more.
 */
function objectsInKeyOrder(columns: string, conditions: string, ordering: Ordering): string {
  const selected = `FROM objects WHERE ${conditions} ${orderBy(ordering)}`;
  if (!ordering.keysFirst) return `SELECT ${columns} ${selected}`;
  return `SELECT ${columns}
          FROM (SELECT ctid AS page_row, namespace, name ${selected}) page,
               LATERAL (SELECT resource_version, body FROM objects WHERE ctid = page.page_row) kept
          ORDER BY ${ordering.keys}`;
}

/**
 * `columns` of the objects `conditions` select among those whose keys `keys` holds (the keys of a label
 * requirement's values, from object_labels, in key order: labelValueKeys), in key order up to the limit: each key's
 * row of `objects` is looked up for the other conditions and the columns as the page needs it, so about a page is
 * read however many objects match (through the GIN index of labels, every match's row was read to sort them). The
 * lookup is a LATERAL subquery whose LIMIT 1 tells the planner that a key has one row: joined plainly, it took
 * (namespace, name) for two independent equalities, expected fewer rows than keys by the number of namespaces,
 * fewer than a page, and so sorted every match instead of stopping.
 */
function objectsByLabelValues(columns: string, keys: string, conditions: string, ordering: Ordering): string {
  return `SELECT ${columns}
          FROM (${keys}) labelled,
               LATERAL (SELECT resource_version, body FROM objects
                        WHERE ${conditions} AND namespace = labelled.namespace AND name = labelled.name LIMIT 1) kept
          ${orderBy(ordering)}`;
}

/**
 * A page's label values read from object_labels: the keys of the requirement's values (labelValueKeys), and the same
 * requirement as a condition on a row, for the rows that table does not hold (a past state's changed objects).
 */
interface LabelValues {
  keys?: string;
  conditions: readonly string[];
}

/** The rows of `objects` a list reads, through the keys of its label values when it has some. */
const currentObjects = (columns: string, conditions: string, values: LabelValues, ordering: Ordering) =>
  values.keys === undefined ? objectsInKeyOrder(columns, conditions, ordering) : objectsByLabelValues(columns, values.keys, conditions, ordering);

/**
 * The state of a kind at a past resourceVersion S: the objects not changed since S, and for each key changed after
 * S the state its first change after S replaced (the previous state of a MODIFIED, the last state of a DELETED;
 * a key whose first change is an ADDED did not exist at S). Complete while S is not below the compaction horizon.
 * The filters and the order (with the limit) are applied in each part as well as to the whole: each part is then
 * read in key order, `objects` as any list reads it (currentObjects: an object not changed since S has the labels
 * object_labels holds), and merged, instead of the whole state being built and sorted.
 */
function stateAt(scope: string, at: string, filters: readonly string[], values: LabelValues, ordering: Ordering): string {
  const and = (conditions: readonly string[]) => conditions.map((condition) => ` AND ${condition}`).join('');
  return `(${currentObjects('namespace, name, resource_version, body', `${scope} AND resource_version <= ${at}${and(filters)}`, values, ordering)})
           UNION ALL
           (SELECT namespace, name, resource_version, body FROM (
             SELECT DISTINCT ON (namespace, name) namespace, name, event_type, p.previous_resource_version AS resource_version,
                    CASE event_type WHEN 'MODIFIED' THEN previous_object ELSE object END AS body
             FROM change_log c LEFT JOIN change_log_previous_versions p USING (resource_version)
             WHERE ${scope} AND c.resource_version > ${at}
             ORDER BY namespace, name, c.resource_version
           ) first_change WHERE event_type <> 'ADDED'${and([...filters, ...values.conditions])} ${orderBy(ordering)})`;
}

/** The newest committed resourceVersion and the compaction horizon, as the snapshot the statement runs in sees them. */
const SNAPSHOT = `SELECT COALESCE(MAX(resource_version), 0)::text AS newest_version,
                    (SELECT compacted_through FROM change_log_compaction)::text AS compacted_through
             FROM change_log`;

/** The objects of a list, in key order: the rows of `objects` or of the rebuilt state, filtered by the selection. */
function rowsQuery(params: SqlParams, key: StorageKey, query: ListQuery, form: ReadForm, known: readonly string[]): string {
  const scope = [`api_group = ${params.add(key.group)}`, `resource = ${params.add(key.resource)}`];
  if (query.namespace !== undefined) scope.push(`namespace = ${params.add(query.namespace)}`);
  const at = query.at === undefined ? undefined : `${params.add(query.at.toString())}::bigint`;
  const filters: string[] = [];
  if (query.after) filters.push(`(namespace, name) > (${params.add(query.after.namespace)}, ${params.add(query.after.name)})`);
  // A page with one requirement of label values takes its keys from object_labels. A whole list (read to its end,
  // which the GIN index of labels and a sort serve as well) tests the labels of each row, and so does a page with
  // several such requirements: the GIN index intersects them, where a join of their ranges in key order could read
  // a common value's whole range to find a rare one's keys (700,000 keys for `app=web,shard=s7` at 1,000,000).
  const valued = (query.labels ?? []).filter(selectsLabelValues);
  const byValues = query.limit !== undefined && valued.length === 1 ? valued[0] : undefined;
  const onKeys = [...scope, ...filters]; // the scope and the continue key: conditions on columns object_labels has too
  const keys = query.namespace === undefined ? 'namespace, name' : 'name';
  const labelled = byValues && labelValueKeys(params, byValues, onKeys, keys);
  const labels = query.labels?.filter((requirement) => requirement !== byValues);
  for (const condition of selectionConditions({ ...query, labels })) filters.push(`(${condition(params)})`);
  const tested = byValues && at !== undefined ? selectionConditions({ labels: [byValues] }).map((condition) => `(${condition(params)})`) : [];
  const values = { keys: labelled, conditions: tested };
  const limit = query.limit === undefined ? undefined : params.add(query.limit + 1);
  const selects = Boolean(labels?.length || query.fields?.length);
  const ordering = { keys, limit, keysFirst: limit !== undefined && selects };
  const columns = LIST_COLUMNS[form](params, query, known);
  if (at === undefined) return currentObjects(columns, [...scope, ...filters].join(' AND '), values, ordering);
  return `SELECT ${columns} FROM (${stateAt(scope.join(' AND '), at, filters, values, ordering)}) state ${orderBy(ordering)}`;
}

/**
 * The statement of a list (exported so that a benchmark can EXPLAIN exactly what the server runs): the objects in
 * key order, with, read in the same snapshot, the newest committed resourceVersion and the compaction horizon.
 * The selection's requirements are conditions on the rows of `objects` (and of the rebuilt state), so their indexes
 * serve them, but for the label values a page reads from object_labels. `known`: see LIST_COLUMNS.
 */
export function listStatement(key: StorageKey, query: ListQuery, form: ReadForm, known: readonly string[] = []) {
  const params = new SqlParams();
  const rows = rowsQuery(params, key, query, form, known);
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
export function cursorStatements(key: StorageKey, query: ListQuery, known: readonly string[] = []) {
  const params = new SqlParams();
  const rows = rowsQuery(params, key, query, 'output', known);
  return { snapshot: SNAPSHOT, rows: { text: rows, values: params.values } };
}
