import { Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { apiErrors, StatusError } from '../../apimachinery/errors/status-error';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { NAMESPACES } from '../../apis/core/core.kinds';
import { Namespace, NAMESPACE_TERMINATING } from '../../apis/core/namespace/namespace.schema';
import { IMMORTAL_NAMESPACES } from '../../apis/core/namespace/system-namespaces';
import { Settings } from '../../config/settings';
import { KindDefinition } from '../../registry/kind-definition';
import { KindRegistry } from '../../registry/kind-registry';
import { GenericRegistry } from '../../registry/store/generic-registry';
import { WriteAdmission, WriteAdmissions } from '../../registry/store/write-admission';
import { SharedInformer } from '../../watch/informer';
import { InformerFactory } from '../../watch/informer-factory';
import { dns1123Label } from '../../apimachinery/validation/names';

export const NAMESPACE_LIFECYCLE = 'NamespaceLifecycle';

/** How long after deleting a namespace this instance reads it from the database rather than from its cache. */
const FORCE_LIVE_LOOKUP_MS = 5_000;

const isNamespaces = (def: KindDefinition) => def.group === NAMESPACES.group && def.resource === NAMESPACES.resource;

/**
 * Upstream's NamespaceLifecycle admission plugin, on every API request's create and update (and, for namespaces,
 * delete): an object may only be written in a namespace that exists (404 NotFound for the namespace otherwise), and
 * created in one that is not Terminating (403 Forbidden with a NamespaceTerminating cause); `default`, `kube-system`
 * and `kube-public` may not be deleted. Namespaces are read from this instance's informer; one the cache does not
 * hold, or one this instance deleted a moment ago, is read from the database, as upstream makes a live lookup.
 * `--disable-admission-plugins=NamespaceLifecycle` turns it off.
 */
@Injectable()
export class NamespaceLifecycleAdmission implements WriteAdmission, OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger(NAMESPACE_LIFECYCLE);
  private readonly informer: SharedInformer;
  private readonly enabled: boolean;
  /** namespaces deleted through this instance, with when their live lookups end */
  private readonly recentlyDeleted = new Map<string, number>();

  constructor(
    private readonly admissions: WriteAdmissions,
    private readonly registry: GenericRegistry,
    private readonly kinds: KindRegistry,
    informers: InformerFactory,
    settings: Settings,
  ) {
    this.enabled = !settings.DISABLE_ADMISSION_PLUGINS.split(',').includes(NAMESPACE_LIFECYCLE);
    this.informer = informers.informerFor({ group: NAMESPACES.group, resource: NAMESPACES.resource });
  }

  onModuleInit(): void {
    if (this.enabled) this.admissions.register(this);
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    this.informer.start().catch((error: Error) => this.logger.warn(`namespaces are read from the database until the cache syncs: ${error.message}`));
  }

  concerns(def: KindDefinition): boolean {
    return def.namespaced || isNamespaces(def);
  }

  async admit(def: KindDefinition, object: KubeObject, old: KubeObject | undefined): Promise<void> {
    const name = object.metadata.namespace;
    // a namespace no Namespace could be named is left to the object's validation, which refuses it (422)
    if (!def.namespaced || !name || dns1123Label(name).length > 0) return;
    const namespace = await this.lookup(name);
    if (!namespace) throw apiErrors.notFound(NAMESPACES, name);
    if (old || namespace.status?.phase !== NAMESPACE_TERMINATING) return;
    const refused = apiErrors.forbidden(def, object.metadata.name ?? '', `unable to create new content in namespace ${name} because it is being terminated`);
    throw new StatusError(refused.code, refused.reason, refused.message, {
      ...refused.details,
      causes: [{ reason: 'NamespaceTerminating', message: `namespace ${name} is being terminated`, field: 'metadata.namespace' }],
    });
  }

  admitDelete(def: KindDefinition, object: KubeObject): void {
    if (!isNamespaces(def)) return;
    const name = object.metadata.name as string;
    if (IMMORTAL_NAMESPACES.has(name)) throw apiErrors.forbidden(def, name, 'this namespace may not be deleted');
    this.recentlyDeleted.set(name, Date.now() + FORCE_LIVE_LOOKUP_MS);
  }

  /** The namespace, from the cache when it holds it Active (or Terminating) and no live lookup is due. */
  private async lookup(name: string): Promise<Namespace | undefined> {
    const until = this.recentlyDeleted.get(name);
    if (until !== undefined && until < Date.now()) this.recentlyDeleted.delete(name);
    const cached = this.informer.hasSynced ? (this.informer.get(name) as Namespace | undefined) : undefined;
    if (cached && (until === undefined || cached.status?.phase === NAMESPACE_TERMINATING)) return cached;
    const def = this.kinds.find(NAMESPACES.group, NAMESPACES.version, NAMESPACES.resource) as KindDefinition;
    try {
      return (await this.registry.get(def, undefined, name)) as Namespace;
    } catch (error) {
      if (error instanceof StatusError && error.code === 404) return undefined;
      throw error;
    }
  }
}
