import { StructSchema } from '../../../apimachinery/schema/schema';
import { KindStrategy } from '../../../registry/kind-definition';
import { Deployment } from '../../extensions/deployment/deployment.schema';
import { DEPLOYMENT_STRATEGY } from '../../extensions/deployment/deployment.strategy';
import { validateDeployment } from '../../extensions/deployment/deployment.validation';
import { validateSelectorUnchanged } from '../immutable-selector';
import { APPS_V1_DEPLOYMENT, APPS_V1BETA1_DEPLOYMENT, APPS_V1BETA2_DEPLOYMENT } from './deployment.apps.schema';
import { AppsDeploymentDefaults, appsDeploymentDefaults } from './deployment.apps.defaults';

/** extensions' strategy over the same stored form, with the version's defaults and, from v1beta2 on, a fixed selector. */
function appsDeploymentStrategy(shape: StructSchema, defaults: AppsDeploymentDefaults, fixedSelector: boolean): KindStrategy {
  return {
    ...DEPLOYMENT_STRATEGY,
    shape,
    applyDefaults: appsDeploymentDefaults(defaults),
    validateUpdate: (deployment: Deployment, old: Deployment) => [
      ...validateDeployment(deployment),
      ...(fixedSelector ? validateSelectorUnchanged(deployment, old) : []),
    ],
  };
}

export const APPS_V1_DEPLOYMENT_STRATEGY = appsDeploymentStrategy(APPS_V1_DEPLOYMENT, { revisionHistoryLimit: 10, selectorFromTemplate: false }, true);
export const APPS_V1BETA2_DEPLOYMENT_STRATEGY = appsDeploymentStrategy(APPS_V1BETA2_DEPLOYMENT, { revisionHistoryLimit: 10, selectorFromTemplate: false }, true);
export const APPS_V1BETA1_DEPLOYMENT_STRATEGY = appsDeploymentStrategy(APPS_V1BETA1_DEPLOYMENT, { revisionHistoryLimit: 2, selectorFromTemplate: true }, false);
