import { formatLabels } from '../../../registry/table/cell-formats';
import { TableColumn } from '../../../registry/table/table-column';
import { replicaColumns } from '../../workloads/replica-columns';
import { ReplicationController } from './replicationcontroller.schema';

/** `kubectl get rc`: as a ReplicaSet's, its selector a plain label map. */
export const REPLICATION_CONTROLLER_COLUMNS: readonly TableColumn[] = replicaColumns((rc) => formatLabels((rc as ReplicationController).spec?.selector));
