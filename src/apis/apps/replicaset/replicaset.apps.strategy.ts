import { StructSchema } from '../../../apimachinery/schema/schema';
import { KindStrategy } from '../../../registry/kind-definition';
import { ReplicaSet } from '../../extensions/replicaset/replicaset.schema';
import { REPLICA_SET_STRATEGY, validateReplicaSet } from '../../extensions/replicaset/replicaset.strategy';
import { validateSelectorUnchanged } from '../immutable-selector';
import { defaultAppsPodController } from '../pod-controller.defaults';
import { APPS_V1_REPLICA_SET, APPS_V1BETA2_REPLICA_SET } from './replicaset.apps.schema';

/** Upstream's apps/v1 and v1beta2 ReplicaSet defaults: one replica, and no selector from the template. */
function defaultAppsReplicaSet(replicaSet: ReplicaSet): void {
  defaultAppsPodController(replicaSet, false);
  replicaSet.spec!.replicas ??= 1;
}

/** extensions' strategy over the same stored form, with the version's defaults and a fixed selector. */
const appsReplicaSetStrategy = (shape: StructSchema): KindStrategy => ({
  ...REPLICA_SET_STRATEGY,
  shape,
  applyDefaults: defaultAppsReplicaSet,
  validateUpdate: (replicaSet: ReplicaSet, old: ReplicaSet) => [...validateReplicaSet(replicaSet), ...validateSelectorUnchanged(replicaSet, old)],
});

export const APPS_V1_REPLICA_SET_STRATEGY = appsReplicaSetStrategy(APPS_V1_REPLICA_SET);
export const APPS_V1BETA2_REPLICA_SET_STRATEGY = appsReplicaSetStrategy(APPS_V1BETA2_REPLICA_SET);
