import { LabelRequirement } from '../../apimachinery/selectors/label-selector';
import { fieldLabelSql } from './field-label-sql';
import { ListSelection } from './list-query';
import { SqlCondition } from './sql-params';

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
