import { KubeObject } from '../../apimachinery/meta/kube-object';
import { LabelSelector } from '../../apimachinery/selectors/label-selector-object';
import { PodTemplateSpec } from './pod-template/pod-template.schema';

/**
 * What the shared defaults and checks read of a kind that runs pods from a template, selected by a label selector
 * (Deployment, ReplicaSet, DaemonSet, whose types their schemas give): the selector, the template and, where the
 * kind has them, the replicas.
 */
export interface PodController extends KubeObject {
  spec?: {
    replicas?: number;
    selector?: LabelSelector;
    template?: PodTemplateSpec;
  };
}

/** A pod controller's selector, which its Scale shows. */
export const podControllerSelector = (object: PodController) => object.spec?.selector;
