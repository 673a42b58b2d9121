import { KubeObject } from '../../apimachinery/meta/kube-object';
import { LabelSelector } from '../../apimachinery/selectors/label-selector-object';
import { PodTemplateSpec } from './pod-template/pod-template.schema';

/**
 * What the shared defaults and checks read of a kind that runs pods from a template, selected by a label selector
 * (Deployment, ReplicaSet, DaemonSet): the fields their specs share, of the types their schemas give them.
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
