import { defaultPodController } from '../../workloads/controller.defaults';
import { DaemonSet } from './daemonset.schema';

/** The 1.7 apiserver's extensions/v1beta1 DaemonSet defaults: OnDelete updates, ten revisions kept. */
export function defaultDaemonSet(daemonSet: DaemonSet): void {
  defaultPodController(daemonSet);
  const spec = daemonSet.spec!;
  const strategy = (spec.updateStrategy ??= {});
  strategy.type ||= 'OnDelete';
  if (strategy.type === 'RollingUpdate') (strategy.rollingUpdate ??= {}).maxUnavailable ??= 1;
  spec.revisionHistoryLimit ??= 10;
}
