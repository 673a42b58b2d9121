import { defineStrategy } from '../../../registry/kind-definition';
import { nameRules } from '../../../apimachinery/validation/names';
import { defaultDeployment } from './deployment.defaults';
import { DEPLOYMENT } from './deployment.schema';
import { podControllerSelector } from '../../workloads/controller.types';
import { validateDeployment, validateDeploymentStatus } from './deployment.validation';

/** Deployment: annotation changes bump the generation too; a status write keeps the labels. */
export const DEPLOYMENT_STRATEGY = defineStrategy({
  nameRule: nameRules.dns1123Subdomain,
  shape: DEPLOYMENT,
  status: { empty: {}, keepsLabels: true, validate: validateDeploymentStatus },
  generation: 'spec-and-annotations',
  orphanDependentsByDefault: true,
  applyDefaults: defaultDeployment,
  validate: validateDeployment,
  validateUpdate: validateDeployment,
  podSelector: podControllerSelector,
});
