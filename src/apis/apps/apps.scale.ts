import { AUTOSCALING_SCALE, labelMapScale } from '../../registry/scale/scale-versions';
import { labelMapScaleType } from '../../registry/scale/scale.schema';
import { ScaleVersion } from '../../registry/kind-definition';
import { APPS_V1BETA1, APPS_V1BETA1_TYPES, APPS_V1BETA2, APPS_V1BETA2_TYPES } from './apps.group';

/** The Scale each apps version serves: apps/v1 autoscaling/v1's, the betas their own (extensions' fields). */
export const APPS_V1_SCALE: ScaleVersion = AUTOSCALING_SCALE;
export const APPS_V1BETA2_SCALE: ScaleVersion = labelMapScale(APPS_V1BETA2.group, APPS_V1BETA2.version, labelMapScaleType(APPS_V1BETA2_TYPES));
export const APPS_V1BETA1_SCALE: ScaleVersion = labelMapScale(APPS_V1BETA1.group, APPS_V1BETA1.version, labelMapScaleType(APPS_V1BETA1_TYPES));
