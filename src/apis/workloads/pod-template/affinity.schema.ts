import { LABEL_SELECTOR } from '../../../apimachinery/selectors/label-selector-object';
import { CORE_V1 } from './core-v1';
import { atomicStruct, described, required, s } from '../../../apimachinery/schema/schema';

const NODE_SELECTOR_REQUIREMENT = CORE_V1.struct('NodeSelectorRequirement', {
  key: [1, s.string, required, described('Node label key the requirement tests.')],
  operator: [2, s.string, required, described('How the label is tested: In, NotIn, Exists, DoesNotExist, Gt or Lt.')],
  values: [3, s.stringList, described('Values to test against; a single integer for Gt and Lt.')],
});

const NODE_SELECTOR_TERM = atomicStruct(
  CORE_V1.struct('NodeSelectorTerm', {
    matchExpressions: [1, s.list(NODE_SELECTOR_REQUIREMENT), required, described('Requirements a node must all meet.')],
  }),
);

const NODE_SELECTOR = atomicStruct(
  CORE_V1.struct('NodeSelector', {
    nodeSelectorTerms: [1, s.list(NODE_SELECTOR_TERM), required, described('Terms of which a node must meet at least one.')],
  }),
);

const PREFERRED_SCHEDULING_TERM = CORE_V1.struct('PreferredSchedulingTerm', {
  weight: [1, s.int32, required, described('Weight of the term, from 1 to 100.')],
  preference: [2, NODE_SELECTOR_TERM, required, described('Requirements a preferred node meets.')],
});

const NODE_AFFINITY = CORE_V1.struct('NodeAffinity', {
  requiredDuringSchedulingIgnoredDuringExecution: [1, NODE_SELECTOR, described('Nodes the pod may be scheduled on.')],
  preferredDuringSchedulingIgnoredDuringExecution: [2, s.list(PREFERRED_SCHEDULING_TERM), described('Nodes the scheduler favours, by weight.')],
});

const POD_AFFINITY_TERM = CORE_V1.struct('PodAffinityTerm', {
  labelSelector: [1, LABEL_SELECTOR, described('Pods the term is about.')],
  namespaces: [2, s.stringList, described('Namespaces of those pods; the namespace of this pod when empty.')],
  topologyKey: [3, s.string, described('Node label whose value names a domain, such as a zone.')],
});

const WEIGHTED_POD_AFFINITY_TERM = CORE_V1.struct('WeightedPodAffinityTerm', {
  weight: [1, s.int32, required, described('Weight of the term, from 1 to 100.')],
  podAffinityTerm: [2, POD_AFFINITY_TERM, required, described('Pods and domain the term is about.')],
});

const POD_AFFINITY = CORE_V1.struct('PodAffinity', {
  requiredDuringSchedulingIgnoredDuringExecution: [1, s.list(POD_AFFINITY_TERM), described('Pods this pod must share a domain with.')],
  preferredDuringSchedulingIgnoredDuringExecution: [2, s.list(WEIGHTED_POD_AFFINITY_TERM), described('Pods this pod is preferably placed near, by weight.')],
});

const POD_ANTI_AFFINITY = CORE_V1.struct('PodAntiAffinity', {
  requiredDuringSchedulingIgnoredDuringExecution: [1, s.list(POD_AFFINITY_TERM), described('Pods this pod must not share a domain with.')],
  preferredDuringSchedulingIgnoredDuringExecution: [2, s.list(WEIGHTED_POD_AFFINITY_TERM), described('Pods this pod is preferably kept away from, by weight.')],
});

export const AFFINITY = CORE_V1.struct('Affinity', {
  nodeAffinity: [1, NODE_AFFINITY, described('Rules on the nodes the pod may go to.')],
  podAffinity: [2, POD_AFFINITY, described('Rules that place the pod near other pods.')],
  podAntiAffinity: [3, POD_ANTI_AFFINITY, described('Rules that keep the pod away from other pods.')],
});
