import { AppsDaemonSet } from './daemonset.apps.schema';
import { defaultAppsPodController } from '../pod-controller.defaults';

/** Upstream's apps/v1 and v1beta2 DaemonSet defaults: rolling updates of one node at a time, no surge, ten revisions kept. */
export function appsDaemonSetDefaults(daemonSet: AppsDaemonSet): void {
  defaultAppsPodController(daemonSet, false);
  const spec = daemonSet.spec!;
  const strategy = (spec.updateStrategy ??= {});
  strategy.type ||= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const rollingUpdate = (strategy.rollingUpdate ??= {});
    rollingUpdate.maxUnavailable ??= 1;
    rollingUpdate.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
}
