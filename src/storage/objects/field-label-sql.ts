import { FieldLabel } from '../../apimachinery/selectors/field-labels';

/**
 * Body paths that the objects table also holds as generated columns (absent as ''): comparing the column lets the
 * primary key serve the selector.
 */
const GENERATED_COLUMNS: Readonly<Record<string, string>> = { 'metadata.name': 'name', 'metadata.namespace': 'namespace' };

/** Keys written into the statement text as they are: field labels are the kinds' declarations, never user text. */
const PLAIN_KEY = /^[A-Za-z][A-Za-z0-9]*$/;

const textLiteral = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** The SQL expression (text, over an `objects` row) of a field label, e.g. COALESCE(body #>> '{status,replicas}', '0'). */
export function fieldLabelSql({ path, absent, orElse }: FieldLabel): string {
  const column = GENERATED_COLUMNS[path.join('.')];
  if (column !== undefined && absent === '' && !orElse) return column;
  const value = bodyText(path);
  if (!orElse) return `COALESCE(${value}, ${textLiteral(absent)})`;
  return `COALESCE(NULLIF(${value}, ''), ${bodyText(orElse)}, ${textLiteral(absent)})`;
}

function bodyText(path: readonly string[]): string {
  if (!path.every((key) => PLAIN_KEY.test(key))) throw new Error(`field label path ${JSON.stringify(path)}: keys must be plain names`);
  return `body #>> '{${path.join(',')}}'`;
}
