import { column, NAME_COLUMN, TableColumn } from '../../../registry/table/table-column';

/** `kubectl get roles` and `clusterroles`: NAME CREATED AT, as upstream's printer has them. */
export const ROLE_COLUMNS: readonly TableColumn[] = [
  NAME_COLUMN,
  column('Created At', 'date', 'Time when this role was created.', [], (role) => role.metadata.creationTimestamp ?? ''),
];
