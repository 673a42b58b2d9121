import { formatLabels, formatSelector } from '../../../registry/table/cell-formats';
import { AGE_COLUMN, column, NAME_COLUMN, TableColumn } from '../../../registry/table/table-column';
import { count, templateColumns } from '../../workloads/controller.columns';
import { DaemonSet } from './daemonset.schema';

const STATUS = ['status'];

/** `kubectl get daemonsets`: NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE, and the template. */
export const DAEMON_SET_COLUMNS: readonly TableColumn[] = [
  NAME_COLUMN,
  column('Desired', 'integer', 'Number of nodes that should run the daemon pod.', [STATUS], (d) => count(d, 'status', 'desiredNumberScheduled')),
  column('Current', 'integer', 'Number of nodes running at least one daemon pod.', [STATUS], (d) => count(d, 'status', 'currentNumberScheduled')),
  column('Ready', 'integer', 'Number of nodes with a ready daemon pod.', [STATUS], (d) => count(d, 'status', 'numberReady')),
  column('Up-to-date', 'integer', 'Number of nodes running the newest daemon pod.', [STATUS], (d) => count(d, 'status', 'updatedNumberScheduled')),
  column('Available', 'integer', 'Number of nodes with an available daemon pod.', [STATUS], (d) => count(d, 'status', 'numberAvailable')),
  column('Node Selector', 'string', 'The nodes the pods may run on.', [['spec', 'template', 'spec', 'nodeSelector']], (d) => formatLabels((d as DaemonSet).spec?.template?.spec?.nodeSelector)),
  AGE_COLUMN,
  ...templateColumns((d) => formatSelector((d as DaemonSet).spec?.selector), 'Label selector for pods.'),
];
