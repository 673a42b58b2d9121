import { resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { described } from '../../../apimachinery/schema/schema';
import { podSecurityPolicySpec } from '../../extensions/podsecuritypolicy/podsecuritypolicy.schema';
import { POLICY_V1BETA1_TYPES } from '../policy.group';

/** policy/v1beta1 PodSecurityPolicy: the fields of the stored extensions/v1beta1 form of later releases. */
export const POD_SECURITY_POLICY_V1BETA1 = resourceKind(POLICY_V1BETA1_TYPES, 'PodSecurityPolicy', {
  spec: [2, podSecurityPolicySpec(POLICY_V1BETA1_TYPES), described('What the pods the policy admits may do.')],
});
