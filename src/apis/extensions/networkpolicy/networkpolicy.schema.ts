import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { described, oneOf, pointer, required, s } from '../../../apimachinery/schema/schema';
import { LABEL_SELECTOR } from '../../../apimachinery/selectors/label-selector-object';
import { PROTOCOLS } from '../../workloads/pod-template/container.schema';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';

const NETWORK_POLICY_PORT = EXTENSIONS_V1BETA1.struct('NetworkPolicyPort', {
  protocol: [1, s.string, oneOf(...PROTOCOLS), pointer, described('Protocol of the traffic: TCP (the default) or UDP.')],
  port: [2, s.intOrString, described('Port, by number or by name; every port when unset.')],
});

const NETWORK_POLICY_PEER = EXTENSIONS_V1BETA1.struct('NetworkPolicyPeer', {
  podSelector: [1, LABEL_SELECTOR, described('Pods of the namespace of the policy that may send the traffic.')],
  namespaceSelector: [2, LABEL_SELECTOR, described('Namespaces whose pods may all send the traffic.')],
});

const NETWORK_POLICY_INGRESS_RULE = EXTENSIONS_V1BETA1.struct('NetworkPolicyIngressRule', {
  ports: [1, s.list(NETWORK_POLICY_PORT), described('Ports the traffic may reach; every port when empty.')],
  from: [2, s.list(NETWORK_POLICY_PEER), described('Sources the traffic may come from; any source when empty.')],
});

/** The 1.7 NetworkPolicy: ingress rules only (egress, ipBlock and policyTypes came later and are dropped). */
const NETWORK_POLICY_SPEC = EXTENSIONS_V1BETA1.struct('NetworkPolicySpec', {
  podSelector: [1, LABEL_SELECTOR, required, described('Pods the policy applies to; every pod of the namespace when empty.')],
  ingress: [2, s.list(NETWORK_POLICY_INGRESS_RULE), described('Incoming traffic allowed to reach those pods.')],
});

export const NETWORK_POLICY = resourceKind(EXTENSIONS_V1BETA1, 'NetworkPolicy', {
  spec: [2, NETWORK_POLICY_SPEC, described('The pods the policy isolates and the traffic it lets in.')],
});

export type NetworkPolicy = KindObject<typeof NETWORK_POLICY>;
