import { defaultPodController } from '../workloads/controller.defaults';
import { PodController } from '../workloads/controller.types';
import { defaultPodTemplate } from '../workloads/pod-template/pod-template.defaults';

/**
 * The defaults of a pod controller written in an apps version: the pod template's, and only where the version has it
 * (apps/v1beta1) the selector and labels from the template's labels; apps/v1 and v1beta2 require a selector instead.
 */
export function defaultAppsPodController(object: PodController, selectorFromTemplate: boolean): void {
  if (selectorFromTemplate) return defaultPodController(object);
  const spec = (object.spec ??= {});
  defaultPodTemplate((spec.template ??= {}));
}
