import { COMMON_FIELD_LABELS, statusCountLabel } from '../../apimachinery/selectors/field-labels';

/** A ReplicaSet's and a ReplicationController's field selectors also know `status.replicas`. */
export const REPLICA_FIELD_LABELS = { ...COMMON_FIELD_LABELS, 'status.replicas': statusCountLabel('replicas') };
