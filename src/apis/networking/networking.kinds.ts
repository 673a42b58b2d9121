import { defineKind, statusSubresource } from '../../registry/define-kind';
import { KindDefinition, storageKeyOf } from '../../registry/kind-definition';
import { sameFieldsConversion } from '../../registry/same-fields-conversion';
import { convertedColumns } from '../../registry/table/converted-columns';
import { extensionsKind } from '../extensions/extensions.kinds';
import { STORED_NETWORK_POLICY } from '../extensions/networkpolicy/networkpolicy.schema';
import { INGRESS_CLASS_COLUMNS } from './ingressclass/ingressclass.columns';
import { INGRESS_CLASS_STRATEGY } from './ingressclass/ingressclass.strategy';
import { INGRESS_V1_COLUMNS } from './ingress/ingress.v1.columns';
import { INGRESS_V1_CONVERSION } from './ingress/ingress.v1.conversion';
import { INGRESS_V1_STRATEGY } from './ingress/ingress.v1.strategy';
import { NETWORK_POLICY_V1_STRATEGY } from './networkpolicy/networkpolicy.v1.strategy';
import { NETWORKING_V1 } from './networking.group';

const STORED_NETWORK_POLICIES = extensionsKind('networkpolicies');
const NETWORK_POLICY_V1_CONVERSION = sameFieldsConversion(STORED_NETWORK_POLICY, 'extensions/v1beta1', 'networking.k8s.io/v1');

/**
 * networking.k8s.io/v1: Ingresses and NetworkPolicies are the objects extensions/v1beta1 stores, converted on the
 * way in and out; IngressClasses are stored as their own. The short names `ing` and `netpol` stay extensions' alone:
 * kubectl warns of a short name two groups declare, which would change what `kubectl get netpol` prints.
 */
export const NETWORKING_V1_KINDS: KindDefinition[] = [
  defineKind(NETWORKING_V1, {
    resource: 'ingressclasses',
    kind: 'IngressClass',
    namespaced: false,
    strategy: INGRESS_CLASS_STRATEGY,
    columns: INGRESS_CLASS_COLUMNS,
  }),
  defineKind(NETWORKING_V1, {
    resource: 'ingresses',
    kind: 'Ingress',
    namespaced: true,
    subresources: [statusSubresource('Ingress')],
    strategy: INGRESS_V1_STRATEGY,
    columns: INGRESS_V1_COLUMNS,
    conversion: INGRESS_V1_CONVERSION,
    storedAs: storageKeyOf(extensionsKind('ingresses')),
  }),
  defineKind(NETWORKING_V1, {
    resource: 'networkpolicies',
    kind: 'NetworkPolicy',
    namespaced: true,
    strategy: NETWORK_POLICY_V1_STRATEGY,
    columns: convertedColumns(STORED_NETWORK_POLICIES.columns ?? [], NETWORK_POLICY_V1_CONVERSION),
    conversion: NETWORK_POLICY_V1_CONVERSION,
    storedAs: storageKeyOf(STORED_NETWORK_POLICIES),
  }),
];
