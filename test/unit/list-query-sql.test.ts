import { Query } from '../../src/apimachinery/parameters/query';
import { EXTENSIONS_KINDS } from '../../src/apis/extensions/extensions.kinds';
import { planList } from '../../src/registry/store/consistent-list';
import { encodeContinue } from '../../src/registry/store/continue-token';
import { readListOptions } from '../../src/registry/store/list-options';
import { listQuery } from '../../src/registry/store/list-options-query';
import { cursorStatements, listStatement } from '../../src/storage/objects/list-statement';

// A list request's parameters, read as list options, planned and made the object storage's query, compiled to the
// statement the storage runs: its text and its parameters. No database: only the compilation is checked.

const DEPLOYMENTS = EXTENSIONS_KINDS.find((kind) => kind.resource === 'deployments')!;
const LABELS = `(body->'metadata'->'labels')`;
const INITIALIZED = `((body->'metadata'->'initializers') IS NULL)`;
const OUTPUT_COLUMNS =
  `((body->'metadata') - 'managedFields')::text AS metadata, (body #> '{metadata,managedFields}')::text AS managed_fields, ` +
  `(body - '{kind,apiVersion,metadata}'::text[])::text AS rest`;

/** The query of a list of Deployments (in namespace `prod` unless `allNamespaces`), as the list handler makes it. */
function queryOf(parameters: Query, allNamespaces = false) {
  const options = readListOptions(DEPLOYMENTS, parameters);
  const plan = planList(options);
  return { plan, query: listQuery(DEPLOYMENTS, allNamespaces ? undefined : 'prod', options, plan.range) };
}

/** The rows part of the statement (what a cursor reads), and its parameters; its white space as one space each. */
function rowsOf(parameters: Query, allNamespaces = false) {
  const { rows } = cursorStatements(DEPLOYMENTS, queryOf(parameters, allNamespaces).query);
  return { ...rows, text: flat(rows.text) };
}

const flat = (text: string) => text.replace(/\s+/g, ' ');

/** What a page reads of each of its rows once its keys are chosen: the row at each kept key's address. */
const KEPT_ROWS = 'page, LATERAL (SELECT resource_version, body FROM objects WHERE ctid = page.page_row) kept';

describe('a list query compiled to SQL', () => {
  it('scopes the rows to the kind and namespace, initialized objects only, in key order (by name within a namespace)', () => {
    expect(rowsOf({})).toEqual({
      text:
        `SELECT namespace, name, resource_version, ${OUTPUT_COLUMNS} FROM objects ` +
        `WHERE api_group = $1 AND resource = $2 AND namespace = $3 AND ${INITIALIZED} ORDER BY name`,
      values: ['extensions', 'deployments', 'prod'],
    });
  });

  it('reads every namespace when none is given, and uninitialized objects when asked for', () => {
    const { text, values } = rowsOf({ includeUninitialized: 'true' }, true);
    expect(text).toContain('WHERE api_group = $1 AND resource = $2 ORDER BY namespace, name');
    expect(values).toEqual(['extensions', 'deployments']);
  });

  it('makes each label requirement a condition on the labels, with its values as parameters', () => {
    const { text, values } = rowsOf({ labelSelector: 'app=web,tier!=db,env in (a,b),zone notin (x),canary,!legacy' });
    // the selector's requirements come sorted by key: app, canary, env, legacy, tier, zone
    expect(text).toContain(
      `namespace = $3 AND (${LABELS} @> $4::jsonb) AND (${LABELS} ? $5) AND (${LABELS} @> $6::jsonb OR ${LABELS} @> $7::jsonb) ` +
        `AND (NOT COALESCE(${LABELS} ? $8, false)) AND (NOT COALESCE(${LABELS} @> $9::jsonb, false)) ` +
        `AND (NOT COALESCE(${LABELS} @> $10::jsonb, false)) AND ${INITIALIZED} ORDER BY`,
    );
    expect(values.slice(3)).toEqual(['{"app":"web"}', 'canary', '{"env":"a"}', '{"env":"b"}', 'legacy', '{"tier":"db"}', '{"zone":"x"}']);
  });

  it('compares metadata.name and metadata.namespace as the generated columns the primary key holds', () => {
    const { text, values } = rowsOf({ fieldSelector: 'metadata.name=web,metadata.namespace!=prod' });
    expect(text).toContain(`namespace = $3 AND (name = $4) AND (namespace <> $5) AND ${INITIALIZED} ORDER BY`);
    expect(values.slice(3)).toEqual(['web', 'prod']);
  });

  it('reads a page of a selection by choosing its keys first, then only the kept rows, by their address, for their output', () => {
    const { text, values } = rowsOf({ labelSelector: 'app!=web', limit: '500' }, true);
    expect(text).toBe(
      `SELECT namespace, name, resource_version, ${OUTPUT_COLUMNS} ` +
        `FROM (SELECT ctid AS page_row, namespace, name FROM objects WHERE api_group = $1 AND resource = $2 ` +
        `AND (NOT COALESCE(${LABELS} @> $3::jsonb, false)) AND ${INITIALIZED} ORDER BY namespace, name LIMIT $4) ${KEPT_ROWS} ORDER BY namespace, name`,
    );
    expect(values).toEqual(['extensions', 'deployments', '{"app":"web"}', 501]);
    expect(rowsOf({ fieldSelector: 'metadata.name=web', limit: '10' }).text).toContain(`ORDER BY name LIMIT $5) ${KEPT_ROWS} ORDER BY name`);
  });

  it('reads a page of label values from the keys object_labels holds of each value, in key order, each row looked up', () => {
    const { text, values } = rowsOf({ labelSelector: 'app=web', limit: '500' }, true);
    expect(text).toBe(
      `SELECT namespace, name, resource_version, ${OUTPUT_COLUMNS} ` +
        `FROM ((SELECT namespace, name FROM object_labels WHERE api_group = $1 AND resource = $2 AND label_key = $3 AND label_value = $4 ORDER BY namespace, name)) labelled, ` +
        `LATERAL (SELECT resource_version, body FROM objects WHERE api_group = $1 AND resource = $2 AND ${INITIALIZED} ` +
        `AND namespace = labelled.namespace AND name = labelled.name LIMIT 1) kept ORDER BY namespace, name LIMIT $5`,
    );
    expect(values).toEqual(['extensions', 'deployments', 'app', 'web', 501]);
  });

  it('merges the ordered ranges of several values, and tests the other requirements on the rows', () => {
    const token = encodeContinue({ resourceVersion: -1n, after: { namespace: 'prod', name: 'web' } });
    const { text, values } = rowsOf({ labelSelector: 'env in (a,b),tier!=db', limit: '10', continue: token });
    const keys = `api_group = $1 AND resource = $2 AND namespace = $3 AND (namespace, name) > ($4, $5)`;
    expect(text).toBe(
      `SELECT namespace, name, resource_version, ${OUTPUT_COLUMNS} ` +
        `FROM ((SELECT namespace, name FROM object_labels WHERE ${keys} AND label_key = $6 AND label_value = $7 ORDER BY name) ` +
        `UNION ALL (SELECT namespace, name FROM object_labels WHERE ${keys} AND label_key = $6 AND label_value = $8 ORDER BY name)) labelled, ` +
        `LATERAL (SELECT resource_version, body FROM objects WHERE ${keys} AND (NOT COALESCE(${LABELS} @> $9::jsonb, false)) AND ${INITIALIZED} ` +
        `AND namespace = labelled.namespace AND name = labelled.name LIMIT 1) kept ORDER BY name LIMIT $10`,
    );
    expect(values).toEqual(['extensions', 'deployments', 'prod', 'prod', 'web', 'env', 'a', 'b', '{"tier":"db"}', 11]);
  });

  it('leaves a page with several requirements of label values to the GIN index, which intersects them', () => {
    const { text } = rowsOf({ labelSelector: 'app=web,tier=db', limit: '10' });
    expect(text).toContain(`FROM objects WHERE api_group = $1 AND resource = $2 AND namespace = $3 AND (${LABELS} @> $4::jsonb) AND (${LABELS} @> $5::jsonb)`);
    expect(text).not.toContain('object_labels');
  });

  it('reads a page without a selection along the key, computing the kept rows\' output as it goes', () => {
    const { text, values } = rowsOf({ limit: '500' }, true);
    expect(text).toBe(
      `SELECT namespace, name, resource_version, ${OUTPUT_COLUMNS} FROM objects ` +
        `WHERE api_group = $1 AND resource = $2 AND ${INITIALIZED} ORDER BY namespace, name LIMIT $3`,
    );
    expect(values).toEqual(['extensions', 'deployments', 501]);
  });

  it('reads a continued page from the token key, at the token version, one row beyond the limit', () => {
    const token = encodeContinue({ resourceVersion: 50n, after: { namespace: 'prod', name: 'web' } });
    const { plan, query } = queryOf({ limit: '10', continue: token });
    expect(plan.range).toEqual({ limit: 10, at: 50n, after: { namespace: 'prod', name: 'web' } });
    const { text, values } = listStatement(DEPLOYMENTS, query, 'output');
    expect(text).toContain(
      `(SELECT namespace, name, resource_version, body FROM objects WHERE api_group = $1 AND resource = $2 AND namespace = $3 ` +
        `AND resource_version <= $4::bigint AND (namespace, name) > ($5, $6) AND ${INITIALIZED} ORDER BY name LIMIT $7)`,
    );
    expect(text).toContain(`WHERE api_group = $1 AND resource = $2 AND namespace = $3 AND c.resource_version > $4::bigint`);
    expect(text).toContain(`first_change WHERE event_type <> 'ADDED' AND (namespace, name) > ($5, $6) AND ${INITIALIZED} ORDER BY name LIMIT $7)`);
    expect(text).toMatch(/\) state ORDER BY name LIMIT \$7\s+\) o ON true$/);
    expect(values).toEqual(['extensions', 'deployments', 'prod', '50', 'prod', 'web', 11]);
  });

  it('reads a page of the newest state from the key of a token that says so', () => {
    const token = encodeContinue({ resourceVersion: -1n, after: { namespace: 'prod', name: 'web' } });
    const { text, values } = rowsOf({ limit: '2', continue: token });
    expect(text).toContain(`FROM objects WHERE api_group = $1 AND resource = $2 AND namespace = $3 AND (namespace, name) > ($4, $5)`);
    expect(text).toMatch(/ORDER BY name LIMIT \$6$/);
    expect(values).toEqual(['extensions', 'deployments', 'prod', 'prod', 'web', 3]);
  });

  it('rebuilds the state at an Exact resourceVersion from the change log, and reads the newest for NotOlderThan', () => {
    const exact = listStatement(DEPLOYMENTS, queryOf({ resourceVersion: '42', resourceVersionMatch: 'Exact', labelSelector: 'app=web' }).query, 'object');
    expect(exact.text).toContain(
      `(SELECT namespace, name, resource_version, body FROM objects WHERE api_group = $1 AND resource = $2 AND namespace = $3 ` +
        `AND resource_version <= $4::bigint AND (${LABELS} @> $5::jsonb) AND ${INITIALIZED} ORDER BY name)`,
    );
    expect(exact.text).toContain('UNION ALL');
    expect(exact.text).toContain(`) first_change WHERE event_type <> 'ADDED' AND (${LABELS} @> $5::jsonb) AND ${INITIALIZED} ORDER BY name)`);
    expect(exact.values).toEqual(['extensions', 'deployments', 'prod', '42', '{"app":"web"}']);
    // a page at a past version: the unchanged objects through object_labels, the changed ones' states tested
    const exactPage = listStatement(DEPLOYMENTS, queryOf({ resourceVersion: '42', labelSelector: 'app=web', limit: '5' }, true).query, 'object');
    expect(flat(exactPage.text)).toContain(
      `(SELECT namespace, name, resource_version, body FROM ((SELECT namespace, name FROM object_labels ` +
        `WHERE api_group = $1 AND resource = $2 AND label_key = $4 AND label_value = $5 ORDER BY namespace, name)) labelled, ` +
        `LATERAL (SELECT resource_version, body FROM objects WHERE api_group = $1 AND resource = $2 AND resource_version <= $3::bigint AND ${INITIALIZED} ` +
        `AND namespace = labelled.namespace AND name = labelled.name LIMIT 1) kept ORDER BY namespace, name LIMIT $7) UNION ALL`,
    );
    expect(flat(exactPage.text)).toContain(`first_change WHERE event_type <> 'ADDED' AND ${INITIALIZED} AND (${LABELS} @> $6::jsonb) ORDER BY namespace, name LIMIT $7)`);
    expect(exactPage.values).toEqual(['extensions', 'deployments', '42', 'app', 'web', '{"app":"web"}', 6]);

    const notOlder = queryOf({ resourceVersion: '42', resourceVersionMatch: 'NotOlderThan' });
    expect(notOlder.plan).toEqual({ range: { limit: undefined }, minimum: 42n });
    const { text, values } = listStatement(DEPLOYMENTS, notOlder.query, 'object');
    expect(text).not.toContain('change_log c');
    expect(text).toContain(`SELECT namespace, name, resource_version, body FROM objects WHERE`);
    expect(values).toEqual(['extensions', 'deployments', 'prod']);
  });

  it('refuses a value PostgreSQL cannot hold as a bad request, not as a failed statement', () => {
    expect(() => rowsOf({ fieldSelector: 'metadata.name=a\u0000b' })).toThrow(expect.objectContaining({ code: 400 }));
  });
});

describe('a list query with a projection', () => {
  const projection = [['metadata', 'name'], ['metadata', 'labels'], ['spec', 'replicas']];
  const projected =
    `jsonb_strip_nulls(jsonb_build_object($4::text, jsonb_build_object($5::text, body #> $6::text[], $7::text, body #> $8::text[]), ` +
    `$9::text, jsonb_build_object($10::text, body #> $11::text[])))`;
  const values = ['extensions', 'deployments', 'prod', 'metadata', 'name', ['metadata', 'name'], 'labels', ['metadata', 'labels'], 'spec', 'replicas', ['spec', 'replicas']];

  it('reads only those paths of each body, for output', () => {
    const { text, values: parameters } = cursorStatements(DEPLOYMENTS, { ...queryOf({}).query, projection }).rows;
    expect(text).toContain(`SELECT namespace, name, resource_version, (((${projected})->'metadata') - 'managedFields')::text AS metadata`);
    expect(parameters).toEqual(values);
  });

  it('reads only those paths of each body, parsed', () => {
    const { text, values: parameters } = listStatement(DEPLOYMENTS, { ...queryOf({}).query, projection }, 'object');
    expect(text).toContain(`SELECT namespace, name, resource_version, (${projected}) AS body FROM objects WHERE`);
    expect(parameters).toEqual(values);
  });
});
