import { KubeObject } from '../../apimachinery/meta/kube-object';
import { defaultPodTemplate } from './pod-template/pod-template.defaults';
import { PodController } from './controller.types';

/** An object without labels takes its template's labels, as 1.7 defaults every pod controller. */
export function defaultLabelsFromTemplate(object: KubeObject, templateLabels: Record<string, string>): void {
  if (Object.keys(object.metadata.labels ?? {}).length === 0) object.metadata.labels = { ...templateLabels };
}

/**
 * The defaults every pod controller with a label selector shares: selector and labels from the template's labels,
 * and the pod template's own defaults.
 */
export function defaultPodController(object: PodController): void {
  const spec = (object.spec ??= {});
  const labels = spec.template?.metadata?.labels;
  if (labels) {
    spec.selector ??= { matchLabels: { ...labels } };
    defaultLabelsFromTemplate(object, labels);
  }
  defaultPodTemplate((spec.template ??= {}));
}
