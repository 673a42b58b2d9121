import { DAEMON_SET_STRATEGY } from '../../extensions/daemonset/daemonset.strategy';
import { appsStrategy } from '../apps-strategy';
import { APPS_V1_DAEMON_SET, APPS_V1BETA2_DAEMON_SET } from './daemonset.apps.schema';
import { appsDaemonSetDefaults } from './daemonset.apps.defaults';

export const APPS_V1_DAEMON_SET_STRATEGY = appsStrategy(DAEMON_SET_STRATEGY, APPS_V1_DAEMON_SET, appsDaemonSetDefaults);
export const APPS_V1BETA2_DAEMON_SET_STRATEGY = appsStrategy(DAEMON_SET_STRATEGY, APPS_V1BETA2_DAEMON_SET, appsDaemonSetDefaults);
