import { KubeObject } from '../../../apimachinery/meta/kube-object';
import { VersionConversion } from '../../../registry/kind-definition';
import { Deployment, DEPLOYMENT } from '../../extensions/deployment/deployment.schema';
import { annotatedInteger, OwnFields, removeAnnotation, storedAsExtensions } from '../stored-as-extensions';
import { MAX_INT32, UNLIMITED_WHEN_UNSET } from './deployment.apps.defaults';

/** Where the versions without `spec.rollbackTo` keep it (upstream's appsv1.DeprecatedRollbackTo). */
export const ROLLBACK_TO_ANNOTATION = 'deprecated.deployment.rollback.to';

/** extensions' `spec.rollbackTo` as the annotation of apps/v1 and v1beta2, and back (upstream's Deployment conversions). */
const ROLLBACK_TO_IN_ANNOTATION: OwnFields = {
  toStored(object: KubeObject) {
    const deployment = object as Deployment;
    // upstream reads an empty annotation as none
    const revision = object.metadata.annotations?.[ROLLBACK_TO_ANNOTATION] ? annotatedInteger(object, ROLLBACK_TO_ANNOTATION) : undefined;
    if (revision === undefined) {
      delete deployment.spec?.rollbackTo;
      return;
    }
    deployment.spec = { ...deployment.spec, rollbackTo: revision ? { revision } : {} };
    removeAnnotation(object, ROLLBACK_TO_ANNOTATION);
  },
  fromStored(object: KubeObject) {
    const deployment = object as Deployment;
    const rollbackTo = deployment.spec?.rollbackTo;
    if (rollbackTo === undefined) {
      removeAnnotation(object, ROLLBACK_TO_ANNOTATION);
      return;
    }
    object.metadata.annotations = { ...object.metadata.annotations, [ROLLBACK_TO_ANNOTATION]: String(rollbackTo.revision ?? 0) };
    delete deployment.spec?.rollbackTo;
  },
  // an annotation of that name written through extensions, with no rollbackTo, is dropped, as upstream drops it
  noneIn: ({ metadata, rest }) => !rest.includes('"rollbackTo"') && !metadata.includes(`"${ROLLBACK_TO_ANNOTATION}"`),
};

/**
 * extensions/v1beta1, as 1.7 served it, leaves `revisionHistoryLimit` and `progressDeadlineSeconds` unset: every old
 * ReplicaSet kept, no progress deadline. Later releases' extensions defaulted both to MaxInt32, which means the same,
 * and that is what the apps versions read of such an object: so a write through them keeps it as it is instead of
 * defaulting the fields to their own 10 and 600 (and the update stores them unset again: keepUnlimitedUnset).
 */
const UNSET_AS_MAX_INT32: OwnFields = {
  toStored: () => undefined,
  fromStored(object: KubeObject) {
    const spec = (object as Deployment).spec;
    if (spec) for (const field of UNLIMITED_WHEN_UNSET) spec[field] ??= MAX_INT32;
  },
  // Both stored, as members of the spec: the two longest keys a Deployment's spec has, so the last two in jsonb's
  // order (by length), with integers; no key of the template can be followed so (annotation values are strings).
  noneIn: ({ rest }) => BOTH_STORED.test(rest),
};
const BOTH_STORED = /"revisionHistoryLimit": -?\d+, "progressDeadlineSeconds": -?\d+\}/;

export const APPS_V1_DEPLOYMENT_CONVERSION: VersionConversion = storedAsExtensions('apps/v1', DEPLOYMENT, ROLLBACK_TO_IN_ANNOTATION, UNSET_AS_MAX_INT32);
export const APPS_V1BETA2_DEPLOYMENT_CONVERSION: VersionConversion = storedAsExtensions('apps/v1beta2', DEPLOYMENT, ROLLBACK_TO_IN_ANNOTATION, UNSET_AS_MAX_INT32);
export const APPS_V1BETA1_DEPLOYMENT_CONVERSION: VersionConversion = storedAsExtensions('apps/v1beta1', DEPLOYMENT, UNSET_AS_MAX_INT32);
