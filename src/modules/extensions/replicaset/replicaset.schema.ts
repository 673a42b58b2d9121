import { LABEL_SELECTOR_SCHEMA } from '../../../apimachinery/selectors/label-selector-object';
import { s } from '../../../apimachinery/schema/schema';
import { REPLICA_STATUS_SCHEMA } from '../../workloads/controller.schema';
import { POD_TEMPLATE_SCHEMA } from '../../workloads/pod-template/pod-template.schema';

export const REPLICA_SET_FIELDS = {
  spec: s.struct('ReplicaSetSpec', {
    replicas: s.int32,
    minReadySeconds: s.int32,
    selector: LABEL_SELECTOR_SCHEMA,
    template: POD_TEMPLATE_SCHEMA,
  }),
  status: REPLICA_STATUS_SCHEMA('ReplicaSetStatus'),
};
