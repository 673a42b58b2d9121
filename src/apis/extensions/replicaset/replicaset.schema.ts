import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { LABEL_SELECTOR } from '../../../apimachinery/selectors/label-selector-object';
import { GoPackage } from '../../../apimachinery/schema/go-packages';
import { described, mergedBy, pointer, required, s } from '../../../apimachinery/schema/schema';
import { POD_TEMPLATE_SPEC } from '../../workloads/pod-template/pod-template.schema';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';

/** The ReplicaSet of a Go package (extensions/v1beta1, apps/v1beta2, v1): the same fields in each. */
export function replicaSetType(pkg: GoPackage) {
  const spec = pkg.struct('ReplicaSetSpec', {
    replicas: [1, s.int32, pointer, described('Number of pods the controller keeps running; 1 by default.')],
    minReadySeconds: [4, s.int32, described('Seconds a new pod must stay ready to count as available.')],
    selector: [2, LABEL_SELECTOR, described('Labels a pod must carry to be counted by this controller.')],
    template: [3, POD_TEMPLATE_SPEC, described('Template new pods are made from.')],
  });
  const condition = pkg.struct('ReplicaSetCondition', {
    type: [1, s.string, required, described('Type of the condition, such as ReplicaFailure.')],
    status: [2, s.string, required, described('Whether the condition holds: True, False or Unknown.')],
    lastTransitionTime: [3, s.time, described('When the status of the condition last changed.')],
    reason: [4, s.string, described('Machine-readable reason for the last change, in CamelCase.')],
    message: [5, s.string, described('Human-readable details of the last change.')],
  });
  const status = pkg.struct('ReplicaSetStatus', {
    replicas: [1, s.int32, required, described('Number of pods observed.')],
    fullyLabeledReplicas: [2, s.int32, described('Number of pods whose labels match those of the template.')],
    readyReplicas: [4, s.int32, described('Number of ready pods.')],
    availableReplicas: [5, s.int32, described('Number of pods ready for at least minReadySeconds.')],
    observedGeneration: [3, s.int64, described('Generation of the object the controller last acted on.')],
    conditions: [6, s.list(condition), mergedBy('type'), described('Latest observations of the state of the controller.')],
  });
  return resourceKind(pkg, 'ReplicaSet', {
    spec: [2, spec, described('Desired state: how many pods, of which template.')],
    status: [3, status, described('Observed state, written by the controller.')],
  });
}

export const REPLICA_SET = replicaSetType(EXTENSIONS_V1BETA1);

export type ReplicaSet = KindObject<typeof REPLICA_SET>;
