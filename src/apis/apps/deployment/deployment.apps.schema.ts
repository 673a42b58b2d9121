import { s } from '../../../apimachinery/schema/schema';
import { deploymentType, rollbackTypes } from '../../extensions/deployment/deployment.schema';
import { APPS_V1_TYPES, APPS_V1BETA1_TYPES, APPS_V1BETA2_TYPES } from '../apps.group';

const APPS_V1BETA1_ROLLBACK = rollbackTypes(APPS_V1BETA1_TYPES);

/** apps/v1 and v1beta2 Deployment: extensions' without rollbackTo (kept in an annotation, see deployment.apps.conversion.ts). */
export const APPS_V1_DEPLOYMENT = deploymentType(APPS_V1_TYPES, s.int32, {});
export const APPS_V1BETA2_DEPLOYMENT = deploymentType(APPS_V1BETA2_TYPES, s.int32, {});

/** apps/v1beta1 Deployment: extensions' fields, rollbackTo and the rollback request included. */
export const APPS_V1BETA1_DEPLOYMENT = deploymentType(APPS_V1BETA1_TYPES, s.int32, APPS_V1BETA1_ROLLBACK.specOnly);
export const APPS_V1BETA1_DEPLOYMENT_ROLLBACK = APPS_V1BETA1_ROLLBACK.deploymentRollback;
