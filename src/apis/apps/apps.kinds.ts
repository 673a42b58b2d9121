import { defineKind, rollbackSubresource, scaleSubresource, statusSubresource } from '../../registry/define-kind';
import { KindDefinition, KindStrategy, ScaleVersion, storageKeyOf, VersionConversion } from '../../registry/kind-definition';
import { ApiGroupVersion } from '../../registry/kind-registry';
import { DAEMON_SET_COLUMNS } from '../extensions/daemonset/daemonset.columns';
import { DEPLOYMENT_COLUMNS } from '../extensions/deployment/deployment.columns';
import { deploymentRollback } from '../extensions/deployment/deployment.rollback';
import { EXTENSIONS } from '../extensions/extensions.group';
import { REPLICA_SET_COLUMNS } from '../extensions/replicaset/replicaset.columns';
import { APPS_V1, APPS_V1BETA1, APPS_V1BETA2 } from './apps.group';
import { APPS_V1_SCALE, APPS_V1BETA1_SCALE, APPS_V1BETA2_SCALE } from './apps.scale';
import { APPS_V1_DAEMON_SET_CONVERSION, APPS_V1BETA2_DAEMON_SET_CONVERSION } from './daemonset/daemonset.apps.conversion';
import { APPS_V1_DAEMON_SET_STRATEGY, APPS_V1BETA2_DAEMON_SET_STRATEGY } from './daemonset/daemonset.apps.strategy';
import { APPS_V1BETA1_DEPLOYMENT_ROLLBACK } from './deployment/deployment.apps.schema';
import {
  APPS_V1_DEPLOYMENT_CONVERSION,
  APPS_V1BETA1_DEPLOYMENT_CONVERSION,
  APPS_V1BETA2_DEPLOYMENT_CONVERSION,
} from './deployment/deployment.apps.conversion';
import { APPS_V1_DEPLOYMENT_STRATEGY, APPS_V1BETA1_DEPLOYMENT_STRATEGY, APPS_V1BETA2_DEPLOYMENT_STRATEGY } from './deployment/deployment.apps.strategy';
import { APPS_V1_REPLICA_SET_STRATEGY, APPS_V1BETA2_REPLICA_SET_STRATEGY } from './replicaset/replicaset.apps.strategy';
import { storedAsExtensions } from './stored-as-extensions';
import { REPLICA_SET } from '../extensions/replicaset/replicaset.schema';
import { DAEMON_SET_NAMES, DEPLOYMENT_NAMES, REPLICA_SET_NAMES } from '../extensions/workload-names';

type AppsGroupVersion = Pick<ApiGroupVersion, 'group' | 'version'>;

/** Where every apps kind is stored: extensions/v1beta1's objects of the same resource. */
const storedAs = (resource: string) => storageKeyOf({ group: EXTENSIONS.group, resource });

/**
 * A Scale resizes the stored object through extensions' kind, as upstream's scale storage updates the internal object:
 * a write of the replica count is not a write in the Scale's version, so no version's defaults apply.
 */
const scale = (version: ScaleVersion, resource: string) =>
  scaleSubresource({ version, target: { ...EXTENSIONS, resource }, writeErrorsAsConflict: false });

/**
 * Upstream gave apps' kinds extensions' short names too; kubectl 1.30 and later then warn on every `rs`, `ds` or
 * `deploy` that the name could also match apps', which the extensions contract's kubectl output does not have. The
 * short names stay extensions' (which kubectl prefers, being listed first), as kubectl resolved them before.
 */
const NO_SHORT_NAMES: readonly string[] = [];

/**
 * Only apps' workloads are in the `all` category, so that `kubectl get all` lists each object once rather than once
 * per group that serves it, as upstream decided while both groups served them.
 */
const ALL: readonly string[] = ['all'];

// the columns read fields every version has at the same path, so the served form is read as is

const deployments = (gv: AppsGroupVersion, strategy: KindStrategy, conversion: VersionConversion, subresources: KindDefinition['subresources']) =>
  defineKind(gv, {
    ...DEPLOYMENT_NAMES,
    shortNames: NO_SHORT_NAMES,
    categories: ALL,
    subresources,
    strategy,
    columns: DEPLOYMENT_COLUMNS,
    conversion,
    storedAs: storedAs('deployments'),
  });

const replicaSets = (gv: AppsGroupVersion, strategy: KindStrategy, scaleVersion: ScaleVersion) =>
  defineKind(gv, {
    ...REPLICA_SET_NAMES,
    shortNames: NO_SHORT_NAMES,
    categories: ALL,
    subresources: [scale(scaleVersion, 'replicasets'), statusSubresource('ReplicaSet')],
    strategy,
    columns: REPLICA_SET_COLUMNS,
    conversion: storedAsExtensions(`${gv.group}/${gv.version}`, REPLICA_SET),
    storedAs: storedAs('replicasets'),
  });

const daemonSets = (gv: AppsGroupVersion, strategy: KindStrategy, conversion: VersionConversion) =>
  defineKind(gv, {
    ...DAEMON_SET_NAMES,
    shortNames: NO_SHORT_NAMES,
    categories: ALL,
    subresources: [statusSubresource('DaemonSet')],
    strategy,
    columns: DAEMON_SET_COLUMNS,
    conversion,
    storedAs: storedAs('daemonsets'),
  });

/** apps/v1: Deployments, ReplicaSets and DaemonSets, over the objects extensions/v1beta1 stores. */
export const APPS_V1_KINDS: KindDefinition[] = [
  daemonSets(APPS_V1, APPS_V1_DAEMON_SET_STRATEGY, APPS_V1_DAEMON_SET_CONVERSION),
  deployments(APPS_V1, APPS_V1_DEPLOYMENT_STRATEGY, APPS_V1_DEPLOYMENT_CONVERSION, [scale(APPS_V1_SCALE, 'deployments'), statusSubresource('Deployment')]),
  replicaSets(APPS_V1, APPS_V1_REPLICA_SET_STRATEGY, APPS_V1_SCALE),
];

/** apps/v1beta2: the same kinds as apps/v1, with Scales of its own. */
export const APPS_V1BETA2_KINDS: KindDefinition[] = [
  daemonSets(APPS_V1BETA2, APPS_V1BETA2_DAEMON_SET_STRATEGY, APPS_V1BETA2_DAEMON_SET_CONVERSION),
  deployments(APPS_V1BETA2, APPS_V1BETA2_DEPLOYMENT_STRATEGY, APPS_V1BETA2_DEPLOYMENT_CONVERSION, [
    scale(APPS_V1BETA2_SCALE, 'deployments'),
    statusSubresource('Deployment'),
  ]),
  replicaSets(APPS_V1BETA2, APPS_V1BETA2_REPLICA_SET_STRATEGY, APPS_V1BETA2_SCALE),
];

/** apps/v1beta1: Deployments only (of this server's kinds), with extensions' rollback. */
export const APPS_V1BETA1_KINDS: KindDefinition[] = [
  deployments(APPS_V1BETA1, APPS_V1BETA1_DEPLOYMENT_STRATEGY, APPS_V1BETA1_DEPLOYMENT_CONVERSION, [
    rollbackSubresource(deploymentRollback(APPS_V1BETA1, APPS_V1BETA1_DEPLOYMENT_ROLLBACK)),
    scale(APPS_V1BETA1_SCALE, 'deployments'),
    statusSubresource('Deployment'),
  ]),
];
