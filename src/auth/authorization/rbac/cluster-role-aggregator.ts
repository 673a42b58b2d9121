import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { selectorMatches } from '../../../apimachinery/selectors/label-selector-object';
import { ClusterRole } from '../../../apis/rbac/clusterrole/clusterrole.schema';
import { PolicyRule } from '../../../apis/rbac/policy/policy-rule.schema';
import { RBAC_GROUP } from '../../../apis/rbac/rbac.group';
import { KindRegistry } from '../../../registry/kind-registry';
import { ObjectStorage } from '../../../registry/rest/object-storage';
import { GenericRegistry } from '../../../registry/store/generic-registry';
import { canonical } from './canonical-json';
import { RbacIndex } from './rbac-index';
import { SERVER_FIELD_MANAGER } from '../../../registry/field-managers';

/** The rules of the cluster roles an aggregated role selects, in the order of their names, each rule once. */
function aggregatedRules(role: ClusterRole, all: readonly ClusterRole[]): PolicyRule[] {
  const selectors = role.aggregationRule?.clusterRoleSelectors ?? [];
  const seen = new Set<string>();
  const rules: PolicyRule[] = [];
  const sources = all
    .filter((other) => other.metadata.name !== role.metadata.name && selectors.some((s) => selectorMatches(s, other.metadata.labels)))
    .sort((a, b) => ((a.metadata.name as string) < (b.metadata.name as string) ? -1 : 1));
  for (const source of sources) {
    for (const rule of source.rules ?? []) {
      const key = canonical(rule);
      if (!seen.has(key)) rules.push(rule);
      seen.add(key);
    }
  }
  return rules;
}

/**
 * ClusterRole aggregation (upstream's clusterrole-aggregation controller): a cluster role with an aggregationRule
 * has as its rules those of every cluster role its selectors select. Each instance recomputes them when a cluster
 * role changes and writes them when they differ; writes are compare-and-swap, and an identical result writes
 * nothing, so instances working at once agree.
 */
@Injectable()
export class ClusterRoleAggregator implements OnApplicationShutdown {
  private readonly logger = new Logger('ClusterRoleAggregator');
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly index: RbacIndex,
    private readonly registry: GenericRegistry,
    private readonly kinds: KindRegistry,
  ) {
    index.onChange((resource) => {
      if (resource === 'clusterroles') this.schedule();
    });
  }

  onApplicationShutdown(): Promise<void> | undefined {
    this.stopped = true;
    return this.running;
  }

  /** Recomputes every aggregated role, once more if asked again while running. */
  schedule(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.aggregateAll()
      .catch((error: Error) => this.logger.warn(`aggregating cluster roles failed: ${error.message}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.schedule();
        }
      });
  }

  /** Aggregates now (at start, so that the server serves a settled policy) and returns when written. */
  async aggregateNow(): Promise<void> {
    this.schedule();
    while (this.running) await this.running;
  }

  /**
   * Computes every aggregated role's rules from the index, in memory until nothing changes (an aggregated role may
   * itself be aggregated, as view into edit into admin), then writes those that differ from what is stored.
   */
  private async aggregateAll(): Promise<void> {
    const def = this.kinds.find(RBAC_GROUP, 'v1', 'clusterroles');
    if (!def) return;
    const roles = new Map([...this.index.allClusterRoles()].map((role) => [role.metadata.name as string, role]));
    const changed = new Set<string>();
    for (let pass = 0, again = true; again && pass <= roles.size; pass++) {
      again = false;
      for (const [name, role] of roles) {
        if (!role.aggregationRule) continue;
        const rules = aggregatedRules(role, [...roles.values()]);
        if (canonical(rules) === canonical(role.rules ?? [])) continue;
        roles.set(name, { ...role, rules });
        changed.add(name);
        again = true;
      }
    }
    const storage = new ObjectStorage(def, this.registry, this.kinds);
    for (const name of changed) {
      const rules = roles.get(name)?.rules ?? [];
      await storage.update(undefined, name, (current) => ({ ...current, rules }), { manager: SERVER_FIELD_MANAGER });
    }
  }
}
