import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { oneOf, pointer, required, s } from '../../../apimachinery/schema/schema';
import { LABEL_SELECTOR } from '../../../apimachinery/selectors/label-selector-object';
import { PROTOCOLS } from '../../workloads/pod-template/container.schema';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';

const NETWORK_POLICY_PORT = EXTENSIONS_V1BETA1.struct('NetworkPolicyPort', {
  protocol: [1, s.string, oneOf(...PROTOCOLS), pointer],
  port: [2, s.intOrString],
});

const NETWORK_POLICY_PEER = EXTENSIONS_V1BETA1.struct('NetworkPolicyPeer', {
  podSelector: [1, LABEL_SELECTOR],
  namespaceSelector: [2, LABEL_SELECTOR],
});

const NETWORK_POLICY_INGRESS_RULE = EXTENSIONS_V1BETA1.struct('NetworkPolicyIngressRule', {
  ports: [1, s.list(NETWORK_POLICY_PORT)],
  from: [2, s.list(NETWORK_POLICY_PEER)],
});

/** The 1.7 NetworkPolicy: ingress rules only (egress, ipBlock and policyTypes came later and are dropped). */
const NETWORK_POLICY_SPEC = EXTENSIONS_V1BETA1.struct('NetworkPolicySpec', {
  podSelector: [1, LABEL_SELECTOR, required],
  ingress: [2, s.list(NETWORK_POLICY_INGRESS_RULE)],
});

export const NETWORK_POLICY = resourceKind(EXTENSIONS_V1BETA1, 'NetworkPolicy', {
  spec: [2, NETWORK_POLICY_SPEC],
});

export type NetworkPolicy = KindObject<typeof NETWORK_POLICY>;
