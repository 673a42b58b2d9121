import { KubeObject } from '../../apimachinery/meta/kube-object';
import { LabelSelector } from '../../apimachinery/selectors/label-selector-object';
import { PodTemplateSpec } from './pod-template/pod-template.types';

/** A kind that runs pods from a template, selected by a label selector (Deployment, ReplicaSet, DaemonSet). */
export interface PodController extends KubeObject {
  spec?: {
    replicas?: number;
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
    selector?: LabelSelector;
    template?: PodTemplateSpec;
  };
  status?: Record<string, number | undefined>;
}

/** A pod controller's selector, which its Scale shows. */
export const podControllerSelector = (object: PodController) => object.spec?.selector;
