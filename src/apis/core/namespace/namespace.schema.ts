import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { CORE_V1 } from '../../workloads/pod-template/core-v1';
import { atomic, described, mergedBy, oneOf, required, s } from '../../../apimachinery/schema/schema';

export const NAMESPACE_ACTIVE = 'Active';
export const NAMESPACE_TERMINATING = 'Terminating';

const NAMESPACE_SPEC = CORE_V1.struct('NamespaceSpec', {
  finalizers: [1, s.stringList, atomic, described('Values that must all be gone before the namespace is removed; `kubernetes` stands for its content.')],
});

export const NAMESPACE_CONDITION = CORE_V1.struct('NamespaceCondition', {
  type: [1, s.string, required, described('Type of the condition, such as NamespaceContentRemaining.')],
  status: [2, s.string, required, described('Whether the condition holds: True, False or Unknown.')],
  lastTransitionTime: [4, s.time, described('When the status of the condition last changed.')],
  reason: [5, s.string, described('Machine-readable reason for the last change, in CamelCase.')],
  message: [6, s.string, described('Human-readable details of the last change.')],
});

const NAMESPACE_STATUS = CORE_V1.struct('NamespaceStatus', {
  phase: [1, s.string, oneOf(NAMESPACE_ACTIVE, NAMESPACE_TERMINATING), described('Lifecycle phase: Active, or Terminating once deleted and until its content is gone.')],
  conditions: [2, s.list(NAMESPACE_CONDITION), mergedBy('type'), described('Latest observations of the deletion of the namespace.')],
});

export const NAMESPACE = resourceKind(CORE_V1, 'Namespace', {
  spec: [2, NAMESPACE_SPEC, described('Desired state: the finalizers that hold its removal.')],
  status: [3, NAMESPACE_STATUS, described('Observed state: the phase and the conditions of its deletion.')],
});

export type Namespace = KindObject<typeof NAMESPACE>;
export type NamespaceCondition = NonNullable<NonNullable<Namespace['status']>['conditions']>[number];
