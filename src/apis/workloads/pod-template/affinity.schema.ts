import { LABEL_SELECTOR } from '../../../apimachinery/selectors/label-selector-object';
import { CORE_V1 } from './core-v1';
import { atomicStruct, required, s } from '../../../apimachinery/schema/schema';

const NODE_SELECTOR_REQUIREMENT = CORE_V1.struct('NodeSelectorRequirement', {
  key: [1, s.string, required],
  operator: [2, s.string, required],
  values: [3, s.stringList],
});

const NODE_SELECTOR_TERM = atomicStruct(
  CORE_V1.struct('NodeSelectorTerm', {
    matchExpressions: [1, s.list(NODE_SELECTOR_REQUIREMENT), required],
  }),
);

const NODE_SELECTOR = atomicStruct(
  CORE_V1.struct('NodeSelector', {
    nodeSelectorTerms: [1, s.list(NODE_SELECTOR_TERM), required],
  }),
);

const PREFERRED_SCHEDULING_TERM = CORE_V1.struct('PreferredSchedulingTerm', {
  weight: [1, s.int32, required],
  preference: [2, NODE_SELECTOR_TERM, required],
});

const NODE_AFFINITY = CORE_V1.struct('NodeAffinity', {
  requiredDuringSchedulingIgnoredDuringExecution: [1, NODE_SELECTOR],
  preferredDuringSchedulingIgnoredDuringExecution: [2, s.list(PREFERRED_SCHEDULING_TERM)],
});

const POD_AFFINITY_TERM = CORE_V1.struct('PodAffinityTerm', {
  labelSelector: [1, LABEL_SELECTOR],
  namespaces: [2, s.stringList],
  topologyKey: [3, s.string],
});

const WEIGHTED_POD_AFFINITY_TERM = CORE_V1.struct('WeightedPodAffinityTerm', {
  weight: [1, s.int32, required],
  podAffinityTerm: [2, POD_AFFINITY_TERM, required],
});

const POD_AFFINITY = CORE_V1.struct('PodAffinity', {
  requiredDuringSchedulingIgnoredDuringExecution: [1, s.list(POD_AFFINITY_TERM)],
  preferredDuringSchedulingIgnoredDuringExecution: [2, s.list(WEIGHTED_POD_AFFINITY_TERM)],
});

const POD_ANTI_AFFINITY = CORE_V1.struct('PodAntiAffinity', {
  requiredDuringSchedulingIgnoredDuringExecution: [1, s.list(POD_AFFINITY_TERM)],
  preferredDuringSchedulingIgnoredDuringExecution: [2, s.list(WEIGHTED_POD_AFFINITY_TERM)],
});

export const AFFINITY = CORE_V1.struct('Affinity', {
  nodeAffinity: [1, NODE_AFFINITY],
  podAffinity: [2, POD_AFFINITY],
  podAntiAffinity: [3, POD_ANTI_AFFINITY],
});
