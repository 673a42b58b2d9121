import { REPLICA_SET_COLUMNS } from './replicaset/replicaset.columns';
import { POD_SECURITY_POLICY_COLUMNS } from './podsecuritypolicy/podsecuritypolicy.columns';
import { NETWORK_POLICY_COLUMNS } from './networkpolicy/networkpolicy.columns';
import { INGRESS_COLUMNS } from './ingress/ingress.columns';
import { DEPLOYMENT_COLUMNS } from './deployment/deployment.columns';
import { DAEMON_SET_COLUMNS } from './daemonset/daemonset.columns';
import { defineKind, rollbackSubresource, scaleSubresource, statusSubresource } from '../../registry/define-kind';
import { defineStrategy, KindDefinition } from '../../registry/kind-definition';
import { EXTENSIONS_SCALE } from '../../registry/scale/scale-versions';
import { nameRules } from '../../apimachinery/validation/names';
import { REPLICATION_CONTROLLERS } from '../core/core.kinds';
import { DAEMON_SET_STRATEGY } from './daemonset/daemonset.strategy';
import { DEPLOYMENT_ROLLBACK } from './deployment/deployment.rollback';
import { DEPLOYMENT_STRATEGY } from './deployment/deployment.strategy';
import { EXTENSIONS, EXTENSIONS_V1BETA1 } from './extensions.group';
import { DAEMON_SET_NAMES, DEPLOYMENT_NAMES, REPLICA_SET_NAMES } from './workload-names';
import { INGRESS_STRATEGY } from './ingress/ingress.strategy';
import { NETWORK_POLICY_STRATEGY } from './networkpolicy/networkpolicy.strategy';
import { POD_SECURITY_POLICY_STRATEGY } from './podsecuritypolicy/podsecuritypolicy.strategy';
import { REPLICA_SET_STRATEGY } from './replicaset/replicaset.strategy';
import { THIRD_PARTY_RESOURCE_STRATEGY } from './thirdpartyresource/thirdpartyresource.strategy';

/** The type of extensions' placeholder for ReplicationControllers: no fields of its own. */
const REPLICATION_CONTROLLER_DUMMY = EXTENSIONS_V1BETA1.struct('ReplicationControllerDummy', {});

const scale = scaleSubresource({ version: EXTENSIONS_SCALE, writeErrorsAsConflict: false });

/** Every kind of extensions/v1beta1. */
export const EXTENSIONS_KINDS: KindDefinition[] = [
  defineKind(EXTENSIONS, {
    ...DAEMON_SET_NAMES,
    subresources: [statusSubresource('DaemonSet')],
    strategy: DAEMON_SET_STRATEGY,
    columns: DAEMON_SET_COLUMNS,
  }),
  defineKind(EXTENSIONS, {
    ...DEPLOYMENT_NAMES,
    subresources: [rollbackSubresource(DEPLOYMENT_ROLLBACK), scale, statusSubresource('Deployment')],
    strategy: DEPLOYMENT_STRATEGY,
    columns: DEPLOYMENT_COLUMNS,
  }),
  defineKind(EXTENSIONS, {
    resource: 'ingresses',
    kind: 'Ingress',
    namespaced: true,
    shortNames: ['ing'],
    subresources: [statusSubresource('Ingress')],
    strategy: INGRESS_STRATEGY,
    columns: INGRESS_COLUMNS,
  }),
  defineKind(EXTENSIONS, {
    resource: 'networkpolicies',
    kind: 'NetworkPolicy',
    namespaced: true,
    shortNames: ['netpol'], // as from 1.8 on, so that `kubectl get netpol` works; 1.7 had none
    strategy: NETWORK_POLICY_STRATEGY,
    columns: NETWORK_POLICY_COLUMNS,
  }),
  defineKind(EXTENSIONS, {
    resource: 'podsecuritypolicies',
    kind: 'PodSecurityPolicy',
    namespaced: false,
    shortNames: ['psp'],
    strategy: POD_SECURITY_POLICY_STRATEGY,
    columns: POD_SECURITY_POLICY_COLUMNS,
  }),
  defineKind(EXTENSIONS, {
    ...REPLICA_SET_NAMES,
    subresources: [scale, statusSubresource('ReplicaSet')],
    strategy: REPLICA_SET_STRATEGY,
    columns: REPLICA_SET_COLUMNS,
  }),
  // A placeholder with no verbs of its own: its scale subresource is a view of core v1 ReplicationControllers.
  defineKind(EXTENSIONS, {
    resource: 'replicationcontrollers',
    kind: 'ReplicationControllerDummy',
    namespaced: true,
    verbs: [],
    subresources: [scaleSubresource({ version: EXTENSIONS_SCALE, target: REPLICATION_CONTROLLERS, writeErrorsAsConflict: true })],
    strategy: defineStrategy({ nameRule: nameRules.dns1123Subdomain, shape: REPLICATION_CONTROLLER_DUMMY }),
  }),
  defineKind(EXTENSIONS, {
    resource: 'thirdpartyresources',
    kind: 'ThirdPartyResource',
    namespaced: false,
    strategy: THIRD_PARTY_RESOURCE_STRATEGY,
  }),
];

/** The extensions/v1beta1 kind of a resource, whose objects later groups serve converted. */
export const extensionsKind = (resource: string): KindDefinition => {
  const def = EXTENSIONS_KINDS.find((kind) => kind.resource === resource);
  if (!def) throw new Error(`extensions/v1beta1 serves no ${resource}`);
  return def;
};
