import { AGE_COLUMN, column, NAME_COLUMN, TableColumn } from '../../../registry/table/table-column';
import { Namespace } from './namespace.schema';

/** `kubectl get namespaces`: NAME STATUS AGE, as upstream's printer has them. */
export const NAMESPACE_COLUMNS: readonly TableColumn[] = [
  NAME_COLUMN,
  column('Status', 'string', 'The status of the namespace', [['status']], (ns) => (ns as Namespace).status?.phase ?? ''),
  AGE_COLUMN,
];
