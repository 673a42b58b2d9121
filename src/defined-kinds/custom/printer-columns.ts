import { AGE_COLUMN, NAME_COLUMN, TableColumn } from '../../registry/table/table-column';
import { humanDuration } from '../../registry/table/human-duration';
import { CrdColumn } from '../../apis/apiextensions/customresourcedefinition/crd.schema';
import { evaluateJsonPath, JsonPathStep, parseJsonPath } from './simple-json-path';

/** A cell as the apiextensions apiserver's table convertor writes it: scalars as they are, dates as an age. */
function cellOf(type: string, values: unknown[], now: number): unknown {
  if (values.length === 0) return null;
  if (values.length > 1) return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(',');
  const [value] = values;
  if (type === 'date' && typeof value === 'string') {
    const time = Date.parse(value);
    return Number.isNaN(time) ? value : humanDuration(now - time);
  }
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return value;
}

function printerColumn(column: CrdColumn, steps: JsonPathStep[]): TableColumn {
  const first = steps[0];
  const reads = first && 'field' in first && first.field !== 'metadata' ? [[first.field]] : [];
  const type = column.type ?? 'string';
  return {
    name: column.name ?? '',
    type,
    ...(column.format && { format: column.format }),
    description: column.description ?? '',
    priority: column.priority ?? 0,
    reads,
    cell: (object, now) => cellOf(type, evaluateJsonPath(steps, object), now),
  };
}

/**
 * A version's Table: NAME, then its additionalPrinterColumns, or AGE when it declares none (the apiextensions
 * apiserver's default). A column whose path this server cannot read is left out.
 */
export function printerColumns(columns: readonly CrdColumn[] | undefined): TableColumn[] {
  if (!columns?.length) return [NAME_COLUMN, AGE_COLUMN];
  const declared = columns.flatMap((column) => {
    const steps = parseJsonPath(column.jsonPath ?? '');
    return steps ? [printerColumn(column, steps)] : [];
  });
  return [NAME_COLUMN, ...declared];
}
