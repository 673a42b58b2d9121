import { formatSelector } from '../../../registry/table/cell-formats';
import { AGE_COLUMN, column, NAME_COLUMN, TableColumn } from '../../../registry/table/table-column';
import { count, templateColumns } from '../../workloads/controller.columns';
import { Deployment } from './deployment.schema';

const STATUS = ['status'];
const REPLICAS = ['spec', 'replicas'];

/** `kubectl get deployments`: NAME READY UP-TO-DATE AVAILABLE AGE, and the template in wide output. */
export const DEPLOYMENT_COLUMNS: readonly TableColumn[] = [
  NAME_COLUMN,
  column('Ready', 'string', 'Number of the pods that are ready, of the desired ones.', [STATUS, REPLICAS], (d) => `${count(d, 'status', 'readyReplicas')}/${count(d, 'spec', 'replicas')}`),
  column('Up-to-date', 'string', 'Total number of pods of the newest template.', [STATUS], (d) => count(d, 'status', 'updatedReplicas')),
  column('Available', 'string', 'Total number of available pods.', [STATUS], (d) => count(d, 'status', 'availableReplicas')),
  AGE_COLUMN,
  ...templateColumns((d) => formatSelector((d as Deployment).spec?.selector), 'Label selector for pods.'),
];
