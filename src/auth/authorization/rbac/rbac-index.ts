import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { KubeObject } from '../../../apimachinery/meta/kube-object';
import { ClusterRole } from '../../../apis/rbac/clusterrole/clusterrole.schema';
import { Binding } from '../../../apis/rbac/policy/binding.schema';
import { PolicyRule } from '../../../apis/rbac/policy/policy-rule.schema';
import { RBAC_GROUP } from '../../../apis/rbac/rbac.group';
import { Role } from '../../../apis/rbac/role/role.schema';
import { ObjectStore } from '../../../registry/store/object-store';
import { Change, resourceKey } from '../../../watch/change';
import { ChangeFeed, FeedSubscriber } from '../../../watch/change-feed.service';
import { UserInfo } from '../../user-info';
import { BindingTable, userKeys } from './binding-table';

export const RBAC_RESOURCES = ['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings'] as const;
type RbacResource = (typeof RBAC_RESOURCES)[number];

/** A binding that applies to a user, and where its rules apply ('' for everywhere). */
export interface AppliedBinding {
  binding: Binding;
  namespace: string;
}

/** The rules a binding gives, or why it gives none (its role is missing). */
export type BoundRules = { rules: readonly PolicyRule[]; error?: undefined } | { rules?: undefined; error: string };

/**
 * Every Role, ClusterRole and binding, in memory, as RBAC reads them (upstream reads them from informers): loaded at
 * start and kept current from this instance's change feed, so that a write through any instance, or by SQL, counts
 * here once the feed has delivered it.
 */
@Injectable()
export class RbacIndex implements OnApplicationShutdown {
  private readonly logger = new Logger('RbacIndex');
  private readonly roles = new Map<string, Role>();
  private readonly clusterRoles = new Map<string, ClusterRole>();
  private readonly bindings = new BindingTable();
  private readonly subscribers: FeedSubscriber[];
  /** changes delivered while the first state is read, applied after it */
  private pending?: Change[] = [];
  private readonly loadedAt = new Map<string, bigint>();
  private readonly listeners: ((change: Change) => void)[] = [];

  constructor(
    private readonly feed: ChangeFeed,
    private readonly store: ObjectStore,
  ) {
    this.subscribers = RBAC_RESOURCES.map((resource) => ({
      key: resourceKey(RBAC_GROUP, resource),
      deliver: (change: Change) => this.receive(change),
    }));
  }

  /** Subscribes to the feed, then reads the current state; changes delivered meanwhile are applied after it. */
  async load(): Promise<void> {
    for (const subscriber of this.subscribers) this.feed.subscribe(subscriber);
    for (const resource of RBAC_RESOURCES) {
      const list = await this.store.list({ group: RBAC_GROUP, resource }, undefined);
      for (const item of list.items) this.put(resource, item);
      this.loadedAt.set(resource, BigInt(list.resourceVersion));
    }
    const pending = this.pending ?? [];
    this.pending = undefined;
    for (const change of pending) if (change.resourceVersion > (this.loadedAt.get(change.resource) ?? 0n)) this.apply(change);
    this.logger.log(`loaded ${this.roles.size} roles, ${this.clusterRoles.size} cluster roles and their bindings`);
  }

  onApplicationShutdown(): void {
    for (const subscriber of this.subscribers) this.feed.unsubscribe(subscriber);
  }

  /** Called with each change applied to the index (the cluster role aggregator follows them). */
  onChange(listener: (change: Change) => void): void {
    this.listeners.push(listener);
  }

  clusterRole(name: string): ClusterRole | undefined {
    return this.clusterRoles.get(name);
  }

  allClusterRoles(): IterableIterator<ClusterRole> {
    return this.clusterRoles.values();
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
      const role = this.roles.get(`${binding.metadata.namespace}/${ref.name}`);
      return role ? { rules: role.rules ?? [] } : { error: `role.${RBAC_GROUP} "${ref.name}" not found` };
    }
    const role = this.clusterRoles.get(ref.name ?? '');
    return role ? { rules: role.rules ?? [] } : { error: `clusterrole.${RBAC_GROUP} "${ref.name}" not found` };
  }

  private receive(change: Change): void {
    if (this.pending) this.pending.push(change);
    else this.apply(change);
  }

  private apply(change: Change): void {
    const resource = change.resource as RbacResource;
    if (change.type === 'DELETED') this.remove(resource, change.object);
    else this.put(resource, change.object);
    for (const listener of this.listeners) listener(change);
  }

  private put(resource: RbacResource, object: KubeObject): void {
    const name = object.metadata.name as string;
    if (resource === 'roles') this.roles.set(`${object.metadata.namespace}/${name}`, object as Role);
    else if (resource === 'clusterroles') this.clusterRoles.set(name, object as ClusterRole);
    else this.bindings.set(object as Binding);
  }

  private remove(resource: RbacResource, object: KubeObject): void {
    const name = object.metadata.name as string;
    if (resource === 'roles') this.roles.delete(`${object.metadata.namespace}/${name}`);
    else if (resource === 'clusterroles') this.clusterRoles.delete(name);
    else this.bindings.delete(BindingTable.key(object));
  }
}
