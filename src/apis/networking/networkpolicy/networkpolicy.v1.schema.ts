import { resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { described } from '../../../apimachinery/schema/schema';
import { networkPolicySpec } from '../../extensions/networkpolicy/networkpolicy.schema';
import { NETWORKING_V1_TYPES } from '../networking.group';

/** networking.k8s.io/v1 NetworkPolicy: the fields of the stored extensions/v1beta1 form of later releases. */
export const NETWORK_POLICY_V1 = resourceKind(NETWORKING_V1_TYPES, 'NetworkPolicy', {
  spec: [2, networkPolicySpec(NETWORKING_V1_TYPES), described('The pods the policy isolates and the traffic it allows to and from them.')],
});
