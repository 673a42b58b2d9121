import { DEPLOYMENT_STRATEGY } from '../../extensions/deployment/deployment.strategy';
import { appsStrategy } from '../apps-strategy';
import { APPS_V1_DEPLOYMENT, APPS_V1BETA1_DEPLOYMENT, APPS_V1BETA2_DEPLOYMENT } from './deployment.apps.schema';
import { appsDeploymentDefaults, keepUnlimitedUnset } from './deployment.apps.defaults';
import { Deployment } from '../../extensions/deployment/deployment.schema';
import { KindStrategy } from '../../../registry/kind-definition';

const NEWER_DEFAULTS = appsDeploymentDefaults({ revisionHistoryLimit: 10, selectorFromTemplate: false });

/** extensions' Deployment strategy as an apps version applies it: an unlimited history or deadline stored unset stays so. */
const APPS_DEPLOYMENT_STRATEGY: KindStrategy = {
  ...DEPLOYMENT_STRATEGY,
  prepareForUpdate(object, old) {
    DEPLOYMENT_STRATEGY.prepareForUpdate(object, old);
    keepUnlimitedUnset(object as Deployment, old as Deployment);
  },
};

export const APPS_V1_DEPLOYMENT_STRATEGY = appsStrategy(APPS_DEPLOYMENT_STRATEGY, APPS_V1_DEPLOYMENT, NEWER_DEFAULTS);
export const APPS_V1BETA2_DEPLOYMENT_STRATEGY = appsStrategy(APPS_DEPLOYMENT_STRATEGY, APPS_V1BETA2_DEPLOYMENT, NEWER_DEFAULTS);
export const APPS_V1BETA1_DEPLOYMENT_STRATEGY = appsStrategy(
  APPS_DEPLOYMENT_STRATEGY,
  APPS_V1BETA1_DEPLOYMENT,
  appsDeploymentDefaults({ revisionHistoryLimit: 2, selectorFromTemplate: true }),
  false,
);
