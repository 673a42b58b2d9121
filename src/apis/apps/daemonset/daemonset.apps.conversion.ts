import { KubeObject } from '../../../apimachinery/meta/kube-object';
import { VersionConversion } from '../../../registry/kind-definition';
import { DAEMON_SET, DaemonSet } from '../../extensions/daemonset/daemonset.schema';
import { annotatedInteger, OwnFields, removeAnnotation, storedAsExtensions } from '../stored-as-extensions';

/** Where apps/v1 and v1beta2 keep extensions' `spec.templateGeneration` (upstream's appsv1.DeprecatedTemplateGeneration). */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

/** extensions' `spec.templateGeneration` as an annotation, always written, and back (upstream's DaemonSet conversions). */
const TEMPLATE_GENERATION_IN_ANNOTATION: OwnFields = {
  toStored(object: KubeObject) {
    const daemonSet = object as DaemonSet;
    if (object.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION] === undefined) {
      delete daemonSet.spec?.templateGeneration;
      return;
    }
    const generation = annotatedInteger(object, TEMPLATE_GENERATION_ANNOTATION) ?? 0;
    daemonSet.spec = { ...daemonSet.spec, templateGeneration: generation };
    removeAnnotation(object, TEMPLATE_GENERATION_ANNOTATION);
  },
  fromStored(object: KubeObject) {
    const daemonSet = object as DaemonSet;
    const generation = daemonSet.spec?.templateGeneration ?? 0;
    object.metadata.annotations = { ...object.metadata.annotations, [TEMPLATE_GENERATION_ANNOTATION]: String(generation) };
    delete daemonSet.spec?.templateGeneration;
  },
  // the annotation is always written
  noneIn: () => false,
};

export const APPS_V1_DAEMON_SET_CONVERSION: VersionConversion = storedAsExtensions('apps/v1', DAEMON_SET, TEMPLATE_GENERATION_IN_ANNOTATION);
export const APPS_V1BETA2_DAEMON_SET_CONVERSION: VersionConversion = storedAsExtensions('apps/v1beta2', DAEMON_SET, TEMPLATE_GENERATION_IN_ANNOTATION);
