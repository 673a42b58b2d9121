import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Settings } from '../../../config/settings';
import { StatusError } from '../../../apimachinery/errors/status-error';
import { KubeObject } from '../../../apimachinery/meta/kube-object';
import { RBAC_GROUP } from '../../../apis/rbac/rbac.group';
import { KindRegistry } from '../../../registry/kind-registry';
import { ObjectStorage } from '../../../registry/rest/object-storage';
import { GenericRegistry } from '../../../registry/store/generic-registry';
import { parseModes } from '../authorization-modes';
import { ClusterRoleAggregator } from './cluster-role-aggregator';
import { canonical } from './canonical-json';
import { AUTOUPDATE_ANNOTATION, BOOTSTRAP_CLUSTER_ROLE_BINDINGS, BOOTSTRAP_CLUSTER_ROLES } from './bootstrap-policy';
import { RbacIndex } from './rbac-index';
import { SERVER_FIELD_MANAGER } from '../../../registry/field-managers';
import { copyJson } from '../../../apimachinery/meta/json-value';

type Doc = Record<string, unknown>;

/** The members of `wanted` missing from `present`. */
function missing(present: unknown, wanted: unknown): unknown[] {
  const have = new Set(((present as unknown[] | undefined) ?? []).map(canonical));
  return ((wanted as unknown[] | undefined) ?? []).filter((item) => !have.has(canonical(item)));
}

/**
 * What upstream's reconciliation makes of a default object found stored: unless it is annotated
 * `rbac.authorization.kubernetes.io/autoupdate: "false"`, it gets back the labels, annotations, rules, aggregation
 * selectors and subjects of the default that it lacks; what was added to it is kept.
 */
function reconciled(current: KubeObject, wanted: KubeObject): KubeObject {
  if (current.metadata.annotations?.[AUTOUPDATE_ANNOTATION] === 'false') return current;
  const next = current as Doc & KubeObject;
  const want = wanted as Doc & KubeObject;
  next.metadata.labels = { ...want.metadata.labels, ...next.metadata.labels };
  next.metadata.annotations = { ...want.metadata.annotations, ...next.metadata.annotations };
  for (const list of ['rules', 'subjects'] as const) {
    const added = missing(next[list], want[list]);
    if (added.length > 0) next[list] = [...((next[list] as unknown[] | undefined) ?? []), ...added];
  }
  const selectors = (want.aggregationRule as Doc | undefined)?.clusterRoleSelectors;
  if (selectors) {
    const rule = (next.aggregationRule ??= { clusterRoleSelectors: [] }) as Doc;
    rule.clusterRoleSelectors = [...((rule.clusterRoleSelectors as unknown[] | undefined) ?? []), ...missing(rule.clusterRoleSelectors, selectors)];
  }
  return next;
}

/**
 * The default policy at start-up when RBAC is among the modes (upstream's RBAC post-start hook): each default cluster role and binding is
 * created when missing and reconciled when present. Instances that start together race harmlessly: a create that
 * finds the object made by another becomes a reconciliation, which is a compare-and-swap write (no write at all
 * when nothing is missing). Then the RBAC index reads its first state, and aggregated roles are brought up to date.
 */
@Injectable()
export class PolicyBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger('PolicyBootstrap');

  constructor(
    private readonly registry: GenericRegistry,
    private readonly kinds: KindRegistry,
    private readonly index: RbacIndex,
    private readonly aggregator: ClusterRoleAggregator,
    private readonly settings: Settings,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (parseModes(this.settings.AUTHORIZATION_MODE).includes('RBAC')) {
      await this.ensure('clusterroles', BOOTSTRAP_CLUSTER_ROLES);
      await this.ensure('clusterrolebindings', BOOTSTRAP_CLUSTER_ROLE_BINDINGS);
    }
    await this.index.load();
    await this.aggregator.aggregateNow();
  }

  private async ensure(resource: string, objects: readonly KubeObject[]): Promise<void> {
    const def = this.kinds.find(RBAC_GROUP, 'v1', resource);
    if (!def) throw new Error(`${resource}.${RBAC_GROUP}/v1 is not registered`);
    const storage = new ObjectStorage(def, this.registry, this.kinds);
    let created = 0;
    for (const wanted of objects) {
      try {
        await this.registry.create(def, copyJson(wanted));
        created += 1;
      } catch (error) {
        if (!(error instanceof StatusError && error.code === 409)) throw error;
        await storage.update(undefined, wanted.metadata.name as string, (current) => reconciled(current, wanted), { manager: SERVER_FIELD_MANAGER });
      }
    }
    if (created > 0) this.logger.log(`created ${created} default ${resource}`);
  }
}
