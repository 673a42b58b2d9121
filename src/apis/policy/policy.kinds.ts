import { defineKind } from '../../registry/define-kind';
import { KindDefinition, storageKeyOf } from '../../registry/kind-definition';
import { sameFieldsConversion } from '../../registry/same-fields-conversion';
import { convertedColumns } from '../../registry/table/converted-columns';
import { extensionsKind } from '../extensions/extensions.kinds';
import { STORED_POD_SECURITY_POLICY } from '../extensions/podsecuritypolicy/podsecuritypolicy.schema';
import { POD_SECURITY_POLICY_STRATEGY, validateLaterPodSecurityPolicy } from '../extensions/podsecuritypolicy/podsecuritypolicy.strategy';
import { POD_SECURITY_POLICY_V1BETA1 } from './podsecuritypolicy/podsecuritypolicy.v1beta1.schema';
import { POLICY_V1BETA1 } from './policy.group';

const STORED_POD_SECURITY_POLICIES = extensionsKind('podsecuritypolicies');
const POD_SECURITY_POLICY_V1BETA1_CONVERSION = sameFieldsConversion(STORED_POD_SECURITY_POLICY, 'extensions/v1beta1', 'policy/v1beta1');

/** policy/v1beta1: PodSecurityPolicies, the objects extensions/v1beta1 stores, with the same fields (`psp` stays extensions'). */
export const POLICY_V1BETA1_KINDS: KindDefinition[] = [
  defineKind(POLICY_V1BETA1, {
    resource: 'podsecuritypolicies',
    kind: 'PodSecurityPolicy',
    namespaced: false,
    strategy: {
      ...POD_SECURITY_POLICY_STRATEGY,
      shape: POD_SECURITY_POLICY_V1BETA1,
      validate: validateLaterPodSecurityPolicy,
      validateUpdate: validateLaterPodSecurityPolicy,
    },
    columns: convertedColumns(STORED_POD_SECURITY_POLICIES.columns ?? [], POD_SECURITY_POLICY_V1BETA1_CONVERSION),
    conversion: POD_SECURITY_POLICY_V1BETA1_CONVERSION,
    storedAs: storageKeyOf(STORED_POD_SECURITY_POLICIES),
  }),
];
