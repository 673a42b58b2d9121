import { Injectable } from '@nestjs/common';
import { StatusError } from '../../apimachinery/errors/status-error';
import { NAMESPACES } from '../../apis/core/core.kinds';
import { KUBERNETES_FINALIZER } from '../../apis/core/namespace/namespace.finalizers';
import { Namespace, NAMESPACE_TERMINATING } from '../../apis/core/namespace/namespace.schema';
import { deepEqual } from '../../apimachinery/meta/deep-equal';
import { KindDefinition, storageKeyOf } from '../../registry/kind-definition';
import { KindRegistry } from '../../registry/kind-registry';
import { ObjectStorage, PartStorage, StatusStorage } from '../../registry/rest/object-storage';
import { GenericRegistry } from '../../registry/store/generic-registry';
import { conditionsAfter, ContentTotals } from './deletion-conditions';
import { copyJson } from '../../apimachinery/meta/json-value';

/** The field manager of the controller's writes, as upstream's namespace controller is recorded. */
const MANAGER = 'kube-controller-manager';

/** What a pass over a deleted namespace came to. */
export type DeletionResult = 'finished' | 'content-remains';

const notFound = (error: unknown) => error instanceof StatusError && error.code === 404;

/**
 * The work of upstream's namespaced resources deleter on one namespace: marks it Terminating, deletes everything in
 * it of every namespaced resource served (built-in and defined, one version of each, through the generic store so
 * that finalizers and the garbage collector are honoured and watchers see each deletion), records how that went in
 * its conditions, and once nothing is left removes the `kubernetes` finalizer through `finalize`, which lets the
 * namespace go.
 */
@Injectable()
export class NamespaceDeleter {
  constructor(
    private readonly registry: GenericRegistry,
    private readonly kinds: KindRegistry,
  ) {}

  async delete(name: string): Promise<DeletionResult> {
    const def = this.namespaces();
    let namespace: Namespace;
    try {
      namespace = (await this.registry.get(def, undefined, name)) as Namespace;
    } catch (error) {
      if (notFound(error)) return 'finished';
      throw error;
    }
    if (!namespace.metadata.deletionTimestamp || !namespace.spec?.finalizers?.includes(KUBERNETES_FINALIZER)) return 'finished';
    const status = new StatusStorage(def, this.registry, this.kinds);
    if (namespace.status?.phase !== NAMESPACE_TERMINATING) {
      await this.write(status, name, (current) => ({ ...current, status: { ...current.status, phase: NAMESPACE_TERMINATING } }));
    }
    const totals = await this.deleteContent(name);
    await this.write(status, name, (current) => {
      const conditions = conditionsAfter(current.status?.conditions ?? [], totals);
      return deepEqual(conditions, current.status?.conditions) ? current : { ...current, status: { ...current.status, conditions } };
    });
    if (totals.errors.length > 0) throw new Error(`deleting the content of namespace ${name} failed: ${totals.errors.join('; ')}`);
    if (totals.remaining.size > 0) return 'content-remains';
    const finalize = def.subresources.find((sub) => sub.name === 'finalize')?.part;
    if (!finalize) throw new Error('namespaces have no finalize subresource');
    await this.write(new PartStorage(def, 'finalize', finalize, this.registry, this.kinds), name, (current) => ({
      ...current,
      spec: { ...current.spec, finalizers: (current.spec?.finalizers ?? []).filter((f) => f !== KUBERNETES_FINALIZER) },
    }));
    return 'finished';
  }

  /** Deletes the namespace's objects of every namespaced resource, then counts what is left and why. */
  private async deleteContent(namespace: string): Promise<ContentTotals> {
    const totals: ContentTotals = { remaining: new Map(), finalizers: new Map(), errors: [] };
    for (const def of this.namespacedResources()) {
      try {
        await this.registry.deleteCollection(def, { namespace }, { propagationPolicy: 'Background' });
        const { items } = await this.registry.list(def, { namespace });
        if (items.length === 0) continue;
        totals.remaining.set(`${def.resource}.${def.group}`, items.length);
        for (const finalizer of items.flatMap((item) => item.metadata.finalizers ?? [])) {
          totals.finalizers.set(finalizer, (totals.finalizers.get(finalizer) ?? 0) + 1);
        }
      } catch (error) {
        totals.errors.push(`${def.resource}.${def.group}: ${(error as Error).message}`);
      }
    }
    return totals;
  }

  /** One kind per stored namespaced resource that can be listed and deleted (the first version registered). */
  private namespacedResources(): KindDefinition[] {
    const byResource = new Map<string, KindDefinition>();
    for (const gv of this.kinds.groupVersions()) {
      for (const def of this.kinds.kindsOf(gv.group, gv.version)) {
        const stored = storageKeyOf(def); // events.k8s.io's Events are core's: deleted once
        const key = `${stored.resource}.${stored.group}`;
        if (def.namespaced && def.verbs.includes('list') && def.verbs.includes('delete') && !byResource.has(key)) byResource.set(key, def);
      }
    }
    return [...byResource.values()];
  }

  private namespaces(): KindDefinition {
    const def = this.kinds.find(NAMESPACES.group, NAMESPACES.version, NAMESPACES.resource);
    if (!def) throw new Error('namespaces are not registered');
    return def;
  }

  private write(storage: ObjectStorage, name: string, next: (current: Namespace) => Namespace) {
    return storage.update(undefined, name, (current) => next(copyJson(current) as Namespace), { manager: MANAGER });
  }
}
