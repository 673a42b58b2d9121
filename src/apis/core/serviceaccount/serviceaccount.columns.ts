import { AGE_COLUMN, column, NAME_COLUMN, TableColumn } from '../../../registry/table/table-column';
import { ServiceAccount } from './serviceaccount.schema';

/** `kubectl get serviceaccounts`: NAME SECRETS AGE, the secrets counted. */
export const SERVICE_ACCOUNT_COLUMNS: readonly TableColumn[] = [
  NAME_COLUMN,
  column('Secrets', 'string', 'Secrets in the same namespace that pods running as this account may use.', [['secrets']], (sa) => (sa as ServiceAccount).secrets?.length ?? 0),
  AGE_COLUMN,
];
