import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { deepEqual } from '../../../apimachinery/meta/deep-equal';
import { validateLabelSelector } from '../../../apimachinery/selectors/label-selector-object';
import { defineStrategy } from '../../../registry/kind-definition';
import { nameRules } from '../../../apimachinery/validation/names';
import { validatePortNumOrName } from '../../workloads/pod-template/handler.validation';
import { NETWORK_POLICY, NetworkPolicy } from './networkpolicy.schema';
import { PROTOCOLS } from '../../workloads/pod-template/container.schema';


function validateNetworkPolicy(policy: NetworkPolicy): FieldError[] {
  const spec = policy.spec ?? {};
  const errors = validateLabelSelector(spec.podSelector, 'spec.podSelector');
  (spec.ingress ?? []).forEach((rule, i) => {
    const path = `spec.ingress[${i}]`;
    (rule.ports ?? []).forEach((port, j) => {
      const portPath = `${path}.ports[${j}]`;
      if (port.protocol !== undefined && !PROTOCOLS.includes(port.protocol)) {
        errors.push(fieldErrors.notSupported(`${portPath}.protocol`, port.protocol, PROTOCOLS));
      }
      if (port.port !== undefined) errors.push(...validatePortNumOrName(port.port, `${portPath}.port`));
    });
    (rule.from ?? []).forEach((peer, j) => {
      const peerPath = `${path}.from[${j}]`;
      const selectors = (['podSelector', 'namespaceSelector'] as const).filter((kind) => peer[kind] !== undefined);
      for (const kind of selectors) errors.push(...validateLabelSelector(peer[kind], `${peerPath}.${kind}`));
      if (selectors.length === 0) errors.push(fieldErrors.required(peerPath, 'must specify a from type'));
      if (selectors.length > 1) errors.push(fieldErrors.forbidden(peerPath, 'may not specify more than 1 from type'));
    });
  });
  return errors;
}

/**
 * NetworkPolicy: its spec cannot change after create, compared strictly (an empty list and an
 * absent one differ). 1.7 meant to default port protocols to TCP but did not, so nothing is defaulted.
 */
export const NETWORK_POLICY_STRATEGY = defineStrategy({
  nameRule: nameRules.dns1123Subdomain,
  shape: NETWORK_POLICY,
  generation: 'spec',
  applyDefaults(policy: NetworkPolicy) {
    (policy.spec ??= {}).podSelector ??= {};
  },
  validate: validateNetworkPolicy,
  validateUpdate(policy: NetworkPolicy, old: NetworkPolicy) {
    return deepEqual(policy.spec, old.spec) ? [] : [fieldErrors.forbidden('spec', 'updates to networkpolicy spec are forbidden.')];
  },
});
