import { Injectable, Logger } from '@nestjs/common';
import { ClusterRole } from '../../../apis/rbac/clusterrole/clusterrole.schema';
import { Binding } from '../../../apis/rbac/policy/binding.schema';
import { PolicyRule } from '../../../apis/rbac/policy/policy-rule.schema';
import { RBAC_GROUP } from '../../../apis/rbac/rbac.group';
import { Role } from '../../../apis/rbac/role/role.schema';
import { objectKey, SharedInformer } from '../../../watch/informer';
import { InformerFactory } from '../../../watch/informer-factory';
import { UserInfo } from '../../../apimachinery/authentication/user-info';
import { BindingTable, userKeys } from './binding-table';

export const RBAC_RESOURCES = ['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings'] as const;
export type RbacResource = (typeof RBAC_RESOURCES)[number];

/** A binding that applies to a user, and where its rules apply ('' for everywhere). */
export interface AppliedBinding {
  binding: Binding;
  namespace: string;
}

/** The rules a binding gives, or why it gives none (its role is missing). */
export type BoundRules = { rules: readonly PolicyRule[]; error?: undefined } | { rules?: undefined; error: string };

/**
 * Every Role, ClusterRole and binding, in memory, as RBAC reads them (upstream reads them from informers, as this
 * does): loaded at start and kept current from this instance's change feed, so that a write through any instance,
 * or by SQL, counts here once the feed has delivered it. Roles are read from their informers' caches; bindings from
 * a table by subject, kept by the bindings' informers' handlers.
 */
@Injectable()
export class RbacIndex {
  private readonly logger = new Logger('RbacIndex');
  private readonly informers: Record<RbacResource, SharedInformer>;
  private readonly bindings = new BindingTable();
  private readonly listeners: ((resource: RbacResource) => void)[] = [];

  constructor(factory: InformerFactory) {
    const informerOf = (resource: RbacResource) => factory.informerFor({ group: RBAC_GROUP, resource });
    this.informers = {
      roles: informerOf('roles'),
      clusterroles: informerOf('clusterroles'),
      rolebindings: informerOf('rolebindings'),
      clusterrolebindings: informerOf('clusterrolebindings'),
    };
    for (const resource of RBAC_RESOURCES) {
      const isBinding = resource === 'rolebindings' || resource === 'clusterrolebindings';
      this.informers[resource].addEventHandler({
        added: (object, initialList) => {
          if (isBinding) this.bindings.set(object as Binding);
          if (!initialList) this.changed(resource);
        },
        updated: (object) => {
          if (isBinding) this.bindings.set(object as Binding);
          this.changed(resource);
        },
        deleted: (object) => {
          if (isBinding) this.bindings.delete(BindingTable.key(object));
          this.changed(resource);
        },
      });
    }
  }

  /** Reads the current state (each informer subscribes to the feed first, so that no change falls in between). */
  async load(): Promise<void> {
    for (const resource of RBAC_RESOURCES) await this.informers[resource].start();
    const count = (resource: RbacResource) => [...this.informers[resource].list()].length;
    this.logger.log(`loaded ${count('roles')} roles, ${count('clusterroles')} cluster roles and their bindings`);
  }

  /** Called with the resource of each change after the first state (the cluster role aggregator follows them). */
  onChange(listener: (resource: RbacResource) => void): void {
    this.listeners.push(listener);
  }

  clusterRole(name: string): ClusterRole | undefined {
    return this.informers.clusterroles.get(name) as ClusterRole | undefined;
  }

  allClusterRoles(): IterableIterator<ClusterRole> {
    return this.informers.clusterroles.list() as IterableIterator<ClusterRole>;
  }

  /** The bindings that apply to a user in a namespace: the cluster's, then the namespace's. */
  bindingsOf(user: UserInfo, namespace: string): AppliedBinding[] {
    const keys = userKeys(user);
    const applied = this.bindings.find('', keys).map((binding) => ({ binding, namespace: '' }));
    if (namespace) for (const binding of this.bindings.find(namespace, keys)) applied.push({ binding, namespace });
    return applied;
  }

  /** The rules of a binding's role. */
  rulesOf({ binding }: AppliedBinding): BoundRules {
    const ref = binding.roleRef ?? {};
    if (ref.kind === 'Role') {
      const role = this.informers.roles.get(objectKey(binding.metadata.namespace, ref.name ?? '')) as Role | undefined;
      return role ? { rules: role.rules ?? [] } : { error: `role.${RBAC_GROUP} "${ref.name}" not found` };
    }
    const role = this.clusterRole(ref.name ?? '');
    return role ? { rules: role.rules ?? [] } : { error: `clusterrole.${RBAC_GROUP} "${ref.name}" not found` };
  }

  private changed(resource: RbacResource): void {
    for (const listener of this.listeners) listener(resource);
  }
}
