import { AGE_COLUMN, column, NAME_COLUMN, TableColumn } from '../../../registry/table/table-column';
import { Secret } from './secret.schema';

/** `kubectl get secrets`: NAME TYPE DATA AGE, as upstream's printer has them. */
export const SECRET_COLUMNS: readonly TableColumn[] = [
  NAME_COLUMN,
  column('Type', 'string', 'How the data is used (the Secret type).', [['type']], (object) => (object as Secret).type ?? ''),
  column('Data', 'string', 'Number of keys in data.', [['data']], (object) => Object.keys((object as Secret).data ?? {}).length),
  AGE_COLUMN,
];
