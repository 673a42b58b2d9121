import { LABEL_SELECTOR_SCHEMA, LabelSelector } from '../../../apimachinery/selectors/label-selector-object';
import { KubeObject } from '../../../apimachinery/meta/kube-object';
import { s } from '../../../apimachinery/schema/schema';

/** The 1.7 NetworkPolicy: ingress rules only (egress, ipBlock and policyTypes came later and are dropped). */
export const NETWORK_POLICY_FIELDS = {
  spec: s.struct('NetworkPolicySpec', {
    podSelector: LABEL_SELECTOR_SCHEMA,
    ingress: s.list(
      s.struct('NetworkPolicyIngressRule', {
        ports: s.list(s.struct('NetworkPolicyPort', { protocol: s.string, port: s.intOrString })),
        from: s.list(s.struct('NetworkPolicyPeer', { podSelector: LABEL_SELECTOR_SCHEMA, namespaceSelector: LABEL_SELECTOR_SCHEMA })),
      }),
    ),
  }),
};

export interface NetworkPolicy extends KubeObject {
  spec?: {
    podSelector?: LabelSelector;
    ingress?: {
      ports?: { protocol?: string; port?: number | string }[];
      from?: { podSelector?: LabelSelector; namespaceSelector?: LabelSelector }[];
    }[];
  };
}
