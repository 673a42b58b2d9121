import { Deployment } from '../../extensions/deployment/deployment.schema';
import { defaultAppsPodController } from '../pod-controller.defaults';

export const MAX_INT32 = 2147483647;
/** The fields extensions/v1beta1 leaves unset to mean "no limit", which the apps versions show as MaxInt32. */
export const UNLIMITED_WHEN_UNSET = ['revisionHistoryLimit', 'progressDeadlineSeconds'] as const;

/**
 * An update through an apps version keeps unset what was stored unset and reads as MaxInt32 there, so that a write
 * that changes neither field changes nothing in the stored object (nor its generation); a MaxInt32 that was stored, or
 * that a create writes, stays.
 */
export function keepUnlimitedUnset(deployment: Deployment, old: Deployment): void {
  for (const field of UNLIMITED_WHEN_UNSET) {
    if (deployment.spec?.[field] === MAX_INT32 && old.spec?.[field] === undefined) delete deployment.spec[field];
  }
}

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
