import { KindStrategy } from '../../../registry/kind-definition';
import { StoredNetworkPolicy } from '../../extensions/networkpolicy/networkpolicy.schema';
import { NETWORK_POLICY_STRATEGY } from '../../extensions/networkpolicy/networkpolicy.strategy';
import { NETWORK_POLICY_V1 } from './networkpolicy.v1.schema';
import { validateNetworkPolicyV1 } from './networkpolicy.v1.validation';

/**
 * networking.k8s.io/v1's defaults (SetDefaults_NetworkPolicy and _NetworkPolicyPort): TCP ports, and the policy
 * types its rules imply. They run only on objects written in this version.
 */
function applyV1Defaults(policy: StoredNetworkPolicy): void {
  const spec = (policy.spec ??= {});
  spec.podSelector ??= {};
  for (const rule of [...(spec.ingress ?? []), ...(spec.egress ?? [])]) for (const port of rule.ports ?? []) port.protocol ??= 'TCP';
  if (!spec.policyTypes?.length) spec.policyTypes = spec.egress?.length ? ['Ingress', 'Egress'] : ['Ingress'];
}

/** networking.k8s.io/v1 NetworkPolicy: over the stored extensions form; its spec may change, as from 1.8 on. */
export const NETWORK_POLICY_V1_STRATEGY: KindStrategy = {
  ...NETWORK_POLICY_STRATEGY,
  shape: NETWORK_POLICY_V1,
  applyDefaults: applyV1Defaults,
  validate: validateNetworkPolicyV1,
  validateUpdate: validateNetworkPolicyV1,
};
