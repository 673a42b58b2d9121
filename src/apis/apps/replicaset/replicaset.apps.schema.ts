import { replicaSetType } from '../../extensions/replicaset/replicaset.schema';
import { APPS_V1_TYPES, APPS_V1BETA2_TYPES } from '../apps.group';

/** apps/v1 and v1beta2 ReplicaSet: extensions' fields. */
export const APPS_V1_REPLICA_SET = replicaSetType(APPS_V1_TYPES);
export const APPS_V1BETA2_REPLICA_SET = replicaSetType(APPS_V1BETA2_TYPES);
