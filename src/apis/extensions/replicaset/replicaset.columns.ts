import { formatSelector } from '../../../registry/table/cell-formats';
import { TableColumn } from '../../../registry/table/table-column';
import { replicaColumns } from '../../workloads/replica-columns';
import { ReplicaSet } from './replicaset.schema';

/** `kubectl get replicasets`: NAME DESIRED CURRENT READY AGE, and the template in wide output. */
export const REPLICA_SET_COLUMNS: readonly TableColumn[] = replicaColumns((rs) => formatSelector((rs as ReplicaSet).spec?.selector));
