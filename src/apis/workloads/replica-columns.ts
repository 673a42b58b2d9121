import { KubeObject } from '../../apimachinery/meta/kube-object';
import { AGE_COLUMN, column, NAME_COLUMN, TableColumn } from '../../registry/table/table-column';
import { count, templateColumns } from './controller.columns';

/** The columns of a ReplicaSet or ReplicationController: NAME DESIRED CURRENT READY AGE, and the template. */
export function replicaColumns(selector: (object: KubeObject) => string): TableColumn[] {
  return [
    NAME_COLUMN,
    column('Desired', 'integer', 'Number of desired pods.', [['spec', 'replicas']], (o) => count(o, 'spec', 'replicas')),
    column('Current', 'integer', 'Number of pods observed.', [['status']], (o) => count(o, 'status', 'replicas')),
    column('Ready', 'integer', 'Number of ready pods.', [['status']], (o) => count(o, 'status', 'readyReplicas')),
    AGE_COLUMN,
    ...templateColumns(selector, 'Label selector for pods.'),
  ];
}
