import { defineStrategy, KindDefinition } from '../../common/registry/kind-definition';
import { defineKind, statusSubresource } from '../../common/registry/define-kind';
import { COMMON_FIELD_LABELS, statusCountLabel } from '../../common/selectors/field-labels';
import { NameRule, nameRules } from '../../common/validation/names';

export const EXTENSIONS = { group: 'extensions', version: 'v1beta1', legacyDiscovery: true };

/** A ThirdPartyResource is named `<kind-name>.<domain>.<tld>`. */
const thirdPartyResourceName: NameRule = (name, prefix) => {
  const errors = nameRules.dns1123Subdomain(name, prefix);
  if (errors.length === 0 && !prefix && name.split('.').length < 3) {
    errors.push(`unexpectedly short resource name: ${name}, expected at least <kind>.<domain>.<tld>`);
  }
  return errors;
};

const scale = { name: 'scale', kind: 'Scale', verbs: ['get', 'patch', 'update'] } as const;
const workload = { nameRule: nameRules.dns1123Subdomain, fields: ['spec', 'status'], hasStatus: true } as const;

/** Every kind of extensions/v1beta1 (reference §12). */
export const EXTENSIONS_KINDS: KindDefinition[] = [
  defineKind(EXTENSIONS, {
    resource: 'daemonsets',
    kind: 'DaemonSet',
    namespaced: true,
    shortNames: ['ds'],
    categories: ['all'],
    subresources: [statusSubresource('DaemonSet')],
    strategy: defineStrategy({ ...workload, generation: 'spec', orphanDependentsByDefault: true }),
  }),
  defineKind(EXTENSIONS, {
    resource: 'deployments',
    kind: 'Deployment',
    namespaced: true,
    shortNames: ['deploy'],
    categories: ['all'],
    subresources: [
      { name: 'rollback', kind: 'DeploymentRollback', verbs: ['create'] },
      scale,
      statusSubresource('Deployment'),
    ],
    strategy: defineStrategy({ ...workload, generation: 'spec-and-annotations', orphanDependentsByDefault: true }),
  }),
  defineKind(EXTENSIONS, {
    resource: 'ingresses',
    kind: 'Ingress',
    namespaced: true,
    shortNames: ['ing'],
    subresources: [statusSubresource('Ingress')],
    strategy: defineStrategy({ ...workload, generation: 'spec' }),
  }),
  defineKind(EXTENSIONS, {
    resource: 'networkpolicies',
    kind: 'NetworkPolicy',
    namespaced: true,
    strategy: defineStrategy({ nameRule: nameRules.dns1123Subdomain, fields: ['spec'], generation: 'spec' }),
  }),
  defineKind(EXTENSIONS, {
    resource: 'podsecuritypolicies',
    kind: 'PodSecurityPolicy',
    namespaced: false,
    shortNames: ['psp'],
    strategy: defineStrategy({ nameRule: nameRules.dns1123Subdomain, fields: ['spec'], generation: 'client' }),
  }),
  defineKind(EXTENSIONS, {
    resource: 'replicasets',
    kind: 'ReplicaSet',
    namespaced: true,
    shortNames: ['rs'],
    categories: ['all'],
    subresources: [scale, statusSubresource('ReplicaSet')],
    strategy: defineStrategy({
      ...workload,
      generation: 'spec',
      orphanDependentsByDefault: true,
      fieldLabels: { ...COMMON_FIELD_LABELS, 'status.replicas': statusCountLabel('replicas') },
    }),
  }),
  // A placeholder with no verbs of its own, so that replicationcontrollers/{name}/scale has a parent.
  defineKind(EXTENSIONS, {
    resource: 'replicationcontrollers',
    kind: 'ReplicationControllerDummy',
    namespaced: true,
    verbs: [],
    subresources: [scale],
    strategy: defineStrategy({ nameRule: nameRules.dns1123Subdomain, fields: [] }),
  }),
  defineKind(EXTENSIONS, {
    resource: 'thirdpartyresources',
    kind: 'ThirdPartyResource',
    namespaced: false,
    strategy: defineStrategy({
      nameRule: thirdPartyResourceName,
      fields: ['description', 'versions'],
      generation: 'client',
      supportsGenerateName: false,
    }),
  }),
];
