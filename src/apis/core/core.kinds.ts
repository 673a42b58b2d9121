import { REPLICATION_CONTROLLER_COLUMNS } from './replicationcontroller/replicationcontroller.columns';
import { defineKind, scaleSubresource, statusSubresource } from '../../registry/define-kind';
import { KindDefinition, KindKey } from '../../registry/kind-definition';
import { AUTOSCALING_SCALE } from '../../registry/scale/scale-versions';
import { REPLICATION_CONTROLLER_STRATEGY } from './replicationcontroller/replicationcontroller.strategy';
import { CONFIG_MAP_COLUMNS } from './configmap/configmap.columns';
import { CONFIG_MAP_STRATEGY } from './configmap/configmap.strategy';
import { SECRET_COLUMNS } from './secret/secret.columns';
import { SECRET_STRATEGY } from './secret/secret.strategy';

/** The core group (served under /api); 1.7 leaves `apiVersion` out of its discovery documents. */
export const CORE = { group: '', version: 'v1', legacyDiscovery: true };

export const REPLICATION_CONTROLLERS: KindKey = { group: CORE.group, version: CORE.version, resource: 'replicationcontrollers' };

/** The kinds of core v1 this server serves: ReplicationControllers, which extensions' Scale view needs. */
export const CORE_KINDS: KindDefinition[] = [
  defineKind(CORE, {
    resource: REPLICATION_CONTROLLERS.resource,
    kind: 'ReplicationController',
    namespaced: true,
    shortNames: ['rc'],
    categories: ['all'],
    subresources: [
      scaleSubresource({ version: AUTOSCALING_SCALE, writeErrorsAsConflict: false }),
      statusSubresource('ReplicationController'),
    ],
    strategy: REPLICATION_CONTROLLER_STRATEGY,
    columns: REPLICATION_CONTROLLER_COLUMNS,
  }),
  defineKind(CORE, {
    resource: 'configmaps',
    kind: 'ConfigMap',
    namespaced: true,
    shortNames: ['cm'],
    strategy: CONFIG_MAP_STRATEGY,
    columns: CONFIG_MAP_COLUMNS,
  }),
  defineKind(CORE, {
    resource: 'secrets',
    kind: 'Secret',
    namespaced: true,
    strategy: SECRET_STRATEGY,
    columns: SECRET_COLUMNS,
  }),
];
