import { LabelRequirement } from '../../apimachinery/selectors/label-selector';
import { fieldLabelSql } from './field-label-sql';
import { ListSelection } from './list-query';
import { SqlCondition, SqlParams } from './sql-params';

const LABELS = `(body->'metadata'->'labels')`;
const INITIALIZERS = `(body->'metadata'->'initializers')`;

function labelCondition({ key, operator, values }: LabelRequirement): SqlCondition {
  const contains = (value: string) => (p: Parameters<SqlCondition>[0]) =>
    `${LABELS} @> ${p.add(JSON.stringify({ [key]: value }))}::jsonb`;
  const anyOf: SqlCondition = (p) => values.map((v) => contains(v)(p)).join(' OR ');
  switch (operator) {
    case 'exists':
      return (p) => `${LABELS} ? ${p.add(key)}`;
    case '!':
      return (p) => `NOT COALESCE(${LABELS} ? ${p.add(key)}, false)`;
    case '=':
      return contains(values[0]);
    case '!=':
      return (p) => `NOT COALESCE(${contains(values[0])(p)}, false)`;
    case 'in':
      return anyOf;
    case 'notin':
      return (p) => `NOT COALESCE(${anyOf(p)}, false)`;
    case '>':
    case '<':
      return (p) => {
        const label = `(${LABELS} ->> ${p.add(key)})`;
        return `CASE WHEN ${label} ~ '^[+-]?[0-9]+$' THEN ${label}::numeric ${operator} ${p.add(values[0])}::numeric ELSE false END`;
      };
  }
}

/** Whether a requirement asks for given values of a label (`=`, `==`, `in`), whose objects object_labels holds in key order. */
export const selectsLabelValues = ({ operator, values }: LabelRequirement) => (operator === '=' || operator === 'in') && values.length > 0;

/**
 * The keys (namespace, name) of the objects whose label has one of the requirement's values, as rows of
 * object_labels where `keyConditions` (the list's conditions on the key columns, which both tables have) hold, in
 * key order (`order`): a range of its primary key per value, each ordered on its own so that PostgreSQL merges them
 * (a Merge Append, which stops with the page; as one UNION ALL it read every range whole and sorted the keys).
 */
export function labelValueKeys(params: SqlParams, { key, values }: LabelRequirement, keyConditions: readonly string[], order: string): string {
  const label = params.add(key);
  return [...new Set(values)]
    .map((value) => {
      const conditions = [...keyConditions, `label_key = ${label}`, `label_value = ${params.add(value)}`].join(' AND ');
      return `(SELECT namespace, name FROM object_labels WHERE ${conditions} ORDER BY ${order})`;
    })
    .join(' UNION ALL ');
}

/**
 * A selection's label, field and initialization requirements as conditions on the rows of `objects` (the namespace
 * is part of the list's scope): label containment uses the GIN index on labels.
 */
export function selectionConditions({ labels = [], fields = [], onlyInitialized }: ListSelection): SqlCondition[] {
  const conditions = labels.map(labelCondition);
  for (const { label, operator, value } of fields) {
    const sql = fieldLabelSql(label);
    conditions.push((p) => `${sql} ${operator === '=' ? '=' : '<>'} ${p.add(value)}`);
  }
  if (onlyInitialized) conditions.push(() => `${INITIALIZERS} IS NULL`);
  return conditions;
}
