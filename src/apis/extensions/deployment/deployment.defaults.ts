import { defaultPodController } from '../../workloads/controller.defaults';
import { Deployment } from './deployment.schema';

/** The 1.7 apiserver's extensions/v1beta1 Deployment defaults: one replica, rolling updates of 1 and 1. */
export function defaultDeployment(deployment: Deployment): void {
  defaultPodController(deployment);
  const spec = deployment.spec!;
  spec.replicas ??= 1;
  const strategy = (spec.strategy ??= {});
  strategy.type ||= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate' || strategy.rollingUpdate) {
    const rollingUpdate = (strategy.rollingUpdate ??= {});
    rollingUpdate.maxUnavailable ??= 1;
    rollingUpdate.maxSurge ??= 1;
  }
}
