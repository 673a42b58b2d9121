import { s } from '../../apimachinery/schema/schema';
import { COMMON_FIELD_LABELS, statusCountLabel } from '../../apimachinery/selectors/field-labels';

/** The status of a ReplicaSet or ReplicationController (the same fields under two Go names). */
export const REPLICA_STATUS_SCHEMA = (name: string) =>
  s.struct(name, {
    replicas: s.int32,
    fullyLabeledReplicas: s.int32,
    readyReplicas: s.int32,
    availableReplicas: s.int32,
    observedGeneration: s.int64,
    conditions: s.list(
      s.struct(`${name.replace('Status', '')}Condition`, {
        type: s.string,
        status: s.string,
        lastTransitionTime: s.time,
        reason: s.string,
        message: s.string,
      }),
    ),
  });

/** A ReplicaSet's and a ReplicationController's field selectors also know `status.replicas`. */
export const REPLICA_FIELD_LABELS = { ...COMMON_FIELD_LABELS, 'status.replicas': statusCountLabel('replicas') };
