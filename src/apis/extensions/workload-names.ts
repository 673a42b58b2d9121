import { KindDefinition } from '../../registry/kind-definition';

type KindNames = Pick<KindDefinition, 'resource' | 'kind' | 'namespaced' | 'shortNames'>;

/** The names of the workload kinds, the same in every group that serves them (extensions/v1beta1, apps). */
export const DAEMON_SET_NAMES: KindNames = { resource: 'daemonsets', kind: 'DaemonSet', namespaced: true, shortNames: ['ds'] };
export const DEPLOYMENT_NAMES: KindNames = { resource: 'deployments', kind: 'Deployment', namespaced: true, shortNames: ['deploy'] };
export const REPLICA_SET_NAMES: KindNames = { resource: 'replicasets', kind: 'ReplicaSet', namespaced: true, shortNames: ['rs'] };
