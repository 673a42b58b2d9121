import { KindObject } from '../../../apimachinery/meta/object-meta-schema';
import { s } from '../../../apimachinery/schema/schema';
import { daemonSetFieldsAfter17, daemonSetType } from '../../extensions/daemonset/daemonset.schema';
import { APPS_V1_TYPES, APPS_V1BETA2_TYPES } from '../apps.group';

/**
 * apps/v1 and v1beta2 DaemonSet: extensions' with the fields of later releases, without templateGeneration (kept in
 * an annotation, see daemonset.apps.conversion.ts).
 */
export const APPS_V1_DAEMON_SET = daemonSetType(APPS_V1_TYPES, s.int32, daemonSetFieldsAfter17(APPS_V1_TYPES));
export const APPS_V1BETA2_DAEMON_SET = daemonSetType(APPS_V1BETA2_TYPES, s.int32, daemonSetFieldsAfter17(APPS_V1BETA2_TYPES));

/** A DaemonSet as the apps versions' defaults read it: the stored form, with the fields of later releases. */
export type AppsDaemonSet = KindObject<typeof APPS_V1_DAEMON_SET>;
