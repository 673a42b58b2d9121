import { StructSchema } from '../../../apimachinery/schema/schema';
import { KindStrategy } from '../../../registry/kind-definition';
import { DaemonSet } from '../../extensions/daemonset/daemonset.schema';
import { DAEMON_SET_STRATEGY } from '../../extensions/daemonset/daemonset.strategy';
import { validateDaemonSet } from '../../extensions/daemonset/daemonset.validation';
import { validateSelectorUnchanged } from '../immutable-selector';
import { APPS_V1_DAEMON_SET, APPS_V1BETA2_DAEMON_SET } from './daemonset.apps.schema';
import { appsDaemonSetDefaults } from './daemonset.apps.defaults';

/** extensions' strategy over the same stored form, with the version's defaults and a fixed selector. */
const appsDaemonSetStrategy = (shape: StructSchema): KindStrategy => ({
  ...DAEMON_SET_STRATEGY,
  shape,
  applyDefaults: appsDaemonSetDefaults,
  validateUpdate: (daemonSet: DaemonSet, old: DaemonSet) => [...validateDaemonSet(daemonSet), ...validateSelectorUnchanged(daemonSet, old)],
});

export const APPS_V1_DAEMON_SET_STRATEGY = appsDaemonSetStrategy(APPS_V1_DAEMON_SET);
export const APPS_V1BETA2_DAEMON_SET_STRATEGY = appsDaemonSetStrategy(APPS_V1BETA2_DAEMON_SET);
