import { REPLICATION_CONTROLLER_COLUMNS } from './replicationcontroller/replicationcontroller.columns';
import { defineKind, scaleSubresource, statusSubresource, tokenSubresource } from '../../registry/define-kind';
import { KindDefinition, KindKey } from '../../registry/kind-definition';
import { AUTOSCALING_SCALE } from '../../registry/scale/scale-versions';
import { REPLICATION_CONTROLLER_STRATEGY } from './replicationcontroller/replicationcontroller.strategy';
import { CONFIG_MAP_COLUMNS } from './configmap/configmap.columns';
import { CONFIG_MAP_STRATEGY } from './configmap/configmap.strategy';
import { SECRET_COLUMNS } from './secret/secret.columns';
import { SECRET_STRATEGY } from './secret/secret.strategy';
import { EVENT_COLUMNS } from './event/event.columns';
import { EVENT_STRATEGY } from './event/event.strategy';
import { NAMESPACE_COLUMNS } from './namespace/namespace.columns';
import { NAMESPACE_FINALIZE, NAMESPACE_STRATEGY } from './namespace/namespace.strategy';
import { SERVICE_ACCOUNT_COLUMNS } from './serviceaccount/serviceaccount.columns';
import { SERVICE_ACCOUNT_STRATEGY } from './serviceaccount/serviceaccount.strategy';
import { SERVICE_ACCOUNT_TOKEN } from './serviceaccount/token-request';

/** The core group (served under /api); 1.7 leaves `apiVersion` out of its discovery documents. */
export const CORE = { group: '', version: 'v1', legacyDiscovery: true };

export const REPLICATION_CONTROLLERS: KindKey = { group: CORE.group, version: CORE.version, resource: 'replicationcontrollers' };
export const SERVICE_ACCOUNTS: KindKey = { group: CORE.group, version: CORE.version, resource: 'serviceaccounts' };

export const NAMESPACES: KindKey = { group: CORE.group, version: CORE.version, resource: 'namespaces' };

/** core/v1 Events, also the stored form of events.k8s.io/v1's (src/apis/events); expired after EVENT_TTL. */
export const CORE_EVENTS: KindDefinition = defineKind(CORE, {
  resource: 'events',
  kind: 'Event',
  namespaced: true,
  shortNames: ['ev'],
  strategy: EVENT_STRATEGY,
  columns: EVENT_COLUMNS,
});

/** The kinds of core v1 this server serves: ReplicationControllers, which extensions' Scale view needs, Namespaces, Events, ServiceAccounts. */
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
    resource: NAMESPACES.resource,
    kind: 'Namespace',
    namespaced: false,
    shortNames: ['ns'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    subresources: [
      { name: 'finalize', kind: 'Namespace', verbs: ['update'], part: NAMESPACE_FINALIZE },
      statusSubresource('Namespace'),
    ],
    strategy: NAMESPACE_STRATEGY,
    columns: NAMESPACE_COLUMNS,
  }),
  CORE_EVENTS,
  defineKind(CORE, {
    resource: SERVICE_ACCOUNTS.resource,
    kind: 'ServiceAccount',
    namespaced: true,
    shortNames: ['sa'],
    subresources: [tokenSubresource(SERVICE_ACCOUNT_TOKEN)],
    strategy: SERVICE_ACCOUNT_STRATEGY,
    columns: SERVICE_ACCOUNT_COLUMNS,
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
