import { column, NAME_COLUMN, TableColumn } from '../../../registry/table/table-column';

/** `kubectl get crd`: NAME and CREATED AT, as the apiextensions apiserver's table prints them. */
export const CRD_COLUMNS: readonly TableColumn[] = [
  NAME_COLUMN,
  column('Created At', 'date', 'The time the definition was created.', [], (object) => object.metadata.creationTimestamp ?? ''),
];
