import { AGE_COLUMN, column, NAME_COLUMN, TableColumn } from '../../../registry/table/table-column';
import { Lease } from './lease.schema';

/** `kubectl get leases`: NAME HOLDER AGE, as upstream's printer has them. */
export const LEASE_COLUMNS: readonly TableColumn[] = [
  NAME_COLUMN,
  column('Holder', 'string', 'The holder of the lease.', [['spec', 'holderIdentity']], (lease) => (lease as Lease).spec?.holderIdentity ?? ''),
  AGE_COLUMN,
];
