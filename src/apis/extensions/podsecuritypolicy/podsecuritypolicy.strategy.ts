import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { defineStrategy } from '../../../registry/kind-definition';
import { nameRules } from '../../../apimachinery/validation/names';
import { validatePolicyAnnotations } from './podsecuritypolicy.annotations';
import { IdStrategy, POD_SECURITY_POLICY, PodSecurityPolicy, PodSecurityPolicySpec } from './podsecuritypolicy.schema';

/** The volume types a policy may allow in 1.7, sorted as the apiserver lists them. */
const VOLUME_TYPES = [
  '*', 'awsElasticBlockStore', 'azureDisk', 'azureFile', 'cephFS', 'cinder', 'configMap', 'downwardAPI', 'emptyDir', 'fc',
  'flexVolume', 'flocker', 'gcePersistentDisk', 'gitRepo', 'glusterfs', 'hostPath', 'iscsi', 'nfs', 'persistentVolumeClaim',
  'photonPersistentDisk', 'portworxVolume', 'projected', 'quobyte', 'rbd', 'scaleIO', 'secret', 'storageos', 'vsphereVolume',
];

/** The rules of each strategy, sorted; an empty rule is refused. */
const RULES: Record<'runAsUser' | 'seLinux' | 'supplementalGroups' | 'fsGroup', string[]> = {
  runAsUser: ['MustRunAs', 'MustRunAsNonRoot', 'RunAsAny'],
  seLinux: ['MustRunAs', 'RunAsAny'],
  supplementalGroups: ['MustRunAs', 'RunAsAny'],
  fsGroup: ['MustRunAs', 'RunAsAny'],
};

function validateStrategy(name: keyof typeof RULES, strategy: IdStrategy = {}): FieldError[] {
  const field = `spec.${name}`;
  const rule = strategy.rule ?? '';
  const errors = RULES[name].includes(rule) ? [] : [fieldErrors.notSupported(`${field}.rule`, rule, RULES[name])];
  (strategy.ranges ?? []).forEach(({ min = 0, max = 0 }, i) => {
    const path = `${field}.ranges[${i}]`;
    if (min < 0) errors.push(fieldErrors.invalid(`${path}.min`, min, 'min cannot be negative'));
    if (max < 0) errors.push(fieldErrors.invalid(`${path}.max`, max, 'max cannot be negative'));
    if (min > max) errors.push(fieldErrors.invalid(`${path}.min`, min, 'min cannot be greater than max'));
  });
  return errors;
}

/** A capability to add or allow may not be one that must be dropped; 1.7's path has no `spec.` prefix. */
function validateCapabilities(spec: PodSecurityPolicySpec): FieldError[] {
  const drops = spec.requiredDropCapabilities;
  if (!drops) return [];
  return (['defaultAddCapabilities', 'allowedCapabilities'] as const).flatMap((field) =>
    (spec[field] ?? [])
      .filter((capability) => drops.includes(capability))
      .map((capability) => fieldErrors.invalid(field, capability, `capability is listed in ${field} and requiredDropCapabilities`)),
  );
}

/** The checks of a policy whose volumes may be of these types. */
const validatePodSecurityPolicy = (volumeTypes: readonly string[]) => (policy: PodSecurityPolicy): FieldError[] => {
  const spec = policy.spec ?? {};
  return [
    ...validatePolicyAnnotations(policy.metadata.annotations ?? {}),
    ...(Object.keys(RULES) as (keyof typeof RULES)[]).flatMap((name) => validateStrategy(name, spec[name])),
    ...(spec.volumes ?? [])
      .filter((volume) => !volumeTypes.includes(volume))
      .map((volume) => fieldErrors.notSupported('spec.volumes', volume, volumeTypes)),
    ...validateCapabilities(spec),
  ];
};

/** PodSecurityPolicy: cluster-scoped, no defaults, the client's generation kept. */
export const POD_SECURITY_POLICY_STRATEGY = defineStrategy({
  nameRule: nameRules.dns1123Subdomain,
  shape: POD_SECURITY_POLICY,
  generation: 'client',
  validate: validatePodSecurityPolicy(VOLUME_TYPES),
  validateUpdate: validatePodSecurityPolicy(VOLUME_TYPES),
});

/** The volume types of later releases (1.24): CSI and ephemeral volumes besides 1.7's. */
const LATER_VOLUME_TYPES = [...VOLUME_TYPES, 'csi', 'ephemeral'].sort();

/** The checks of a policy written in policy/v1beta1, whose volumes may be of the later types. */
export const validateLaterPodSecurityPolicy = validatePodSecurityPolicy(LATER_VOLUME_TYPES);
