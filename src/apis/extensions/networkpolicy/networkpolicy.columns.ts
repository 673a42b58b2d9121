import { formatSelector } from '../../../registry/table/cell-formats';
import { AGE_COLUMN, column, NAME_COLUMN, TableColumn } from '../../../registry/table/table-column';
import { NetworkPolicy } from './networkpolicy.schema';

/** `kubectl get networkpolicies`: NAME POD-SELECTOR AGE. */
export const NETWORK_POLICY_COLUMNS: readonly TableColumn[] = [
  NAME_COLUMN,
  column('Pod-Selector', 'string', 'The pods the policy applies to.', [['spec', 'podSelector']], (p) => formatSelector((p as NetworkPolicy).spec?.podSelector)),
  AGE_COLUMN,
];
