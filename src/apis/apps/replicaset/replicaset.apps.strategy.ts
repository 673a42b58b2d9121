import { ReplicaSet } from '../../extensions/replicaset/replicaset.schema';
import { REPLICA_SET_STRATEGY } from '../../extensions/replicaset/replicaset.strategy';
import { appsStrategy } from '../apps-strategy';
import { defaultAppsPodController } from '../pod-controller.defaults';
import { APPS_V1_REPLICA_SET, APPS_V1BETA2_REPLICA_SET } from './replicaset.apps.schema';

/** Upstream's apps/v1 and v1beta2 ReplicaSet defaults: one replica, and no selector from the template. */
function defaultAppsReplicaSet(replicaSet: ReplicaSet): void {
  defaultAppsPodController(replicaSet, false);
  replicaSet.spec!.replicas ??= 1;
}

export const APPS_V1_REPLICA_SET_STRATEGY = appsStrategy(REPLICA_SET_STRATEGY, APPS_V1_REPLICA_SET, defaultAppsReplicaSet);
export const APPS_V1BETA2_REPLICA_SET_STRATEGY = appsStrategy(REPLICA_SET_STRATEGY, APPS_V1BETA2_REPLICA_SET, defaultAppsReplicaSet);
