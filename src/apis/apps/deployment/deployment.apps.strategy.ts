import { DEPLOYMENT_STRATEGY } from '../../extensions/deployment/deployment.strategy';
import { appsStrategy } from '../apps-strategy';
import { APPS_V1_DEPLOYMENT, APPS_V1BETA1_DEPLOYMENT, APPS_V1BETA2_DEPLOYMENT } from './deployment.apps.schema';
import { appsDeploymentDefaults } from './deployment.apps.defaults';

const NEWER_DEFAULTS = appsDeploymentDefaults({ revisionHistoryLimit: 10, selectorFromTemplate: false });

export const APPS_V1_DEPLOYMENT_STRATEGY = appsStrategy(DEPLOYMENT_STRATEGY, APPS_V1_DEPLOYMENT, NEWER_DEFAULTS);
export const APPS_V1BETA2_DEPLOYMENT_STRATEGY = appsStrategy(DEPLOYMENT_STRATEGY, APPS_V1BETA2_DEPLOYMENT, NEWER_DEFAULTS);
export const APPS_V1BETA1_DEPLOYMENT_STRATEGY = appsStrategy(
  DEPLOYMENT_STRATEGY,
  APPS_V1BETA1_DEPLOYMENT,
  appsDeploymentDefaults({ revisionHistoryLimit: 2, selectorFromTemplate: true }),
  false,
);
