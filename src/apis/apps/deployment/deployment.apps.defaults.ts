import { Deployment } from '../../extensions/deployment/deployment.schema';
import { defaultAppsPodController } from '../pod-controller.defaults';

export const MAX_INT32 = 2147483647;
/** The fields extensions/v1beta1 leaves unset to mean "no limit", which the apps versions show as MaxInt32. */
export const UNLIMITED_WHEN_UNSET = ['revisionHistoryLimit', 'progressDeadlineSeconds'] as const;

/** How the apps versions' Deployment defaults differ: apps/v1beta1 keeps 2 old replica sets and defaults the selector. */
export interface AppsDeploymentDefaults {
  revisionHistoryLimit: number;
  selectorFromTemplate: boolean;
}

/**
 * Upstream's apps Deployment defaults: one replica, rolling updates of 25 % and 25 %, a progress deadline of 600 s.
 * They run on the stored form, where an unlimited history or deadline (MaxInt32, as the apps versions show an
 * extensions object's unset fields) is stored unset, as extensions/v1beta1 writes it.
 */
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
    for (const field of UNLIMITED_WHEN_UNSET) if (spec[field] === MAX_INT32) delete spec[field];
  };
