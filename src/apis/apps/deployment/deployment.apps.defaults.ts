import { Deployment } from '../../extensions/deployment/deployment.schema';
import { defaultAppsPodController } from '../pod-controller.defaults';

/** How the apps versions' Deployment defaults differ: apps/v1beta1 keeps 2 old replica sets and defaults the selector. */
export interface AppsDeploymentDefaults {
  revisionHistoryLimit: number;
  selectorFromTemplate: boolean;
}

/** Upstream's apps Deployment defaults: one replica, rolling updates of 25 % and 25 %, a progress deadline of 600 s. */
export const appsDeploymentDefaults =
  ({ revisionHistoryLimit, selectorFromTemplate }: AppsDeploymentDefaults) =>
  (deployment: Deployment): void => {
    defaultAppsPodController(deployment, selectorFromTemplate);
    const spec = deployment.spec!;
    spec.replicas ??= 1;
    const strategy = (spec.strategy ??= {});
    strategy.type ||= 'RollingUpdate';
    if (strategy.type === 'RollingUpdate') {
      const rollingUpdate = (strategy.rollingUpdate ??= {});
      rollingUpdate.maxUnavailable ??= '25%';
      rollingUpdate.maxSurge ??= '25%';
    }
    spec.revisionHistoryLimit ??= revisionHistoryLimit;
    spec.progressDeadlineSeconds ??= 600;
  };
