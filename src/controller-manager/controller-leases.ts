import { Injectable } from '@nestjs/common';
import { apiErrors } from '../apimachinery/errors/status-error';
import { COORDINATION_V1 } from '../apis/coordination/coordination.group';
import { Lease } from '../apis/coordination/lease/lease.schema';
import { KindDefinition } from '../registry/kind-definition';
import { KindRegistry } from '../registry/kind-registry';
import { GenericRegistry } from '../registry/store/generic-registry';
import { objectKey, SharedInformer } from '../watch/informer';
import { InformerFactory } from '../watch/informer-factory';

/** Where the controllers' Leases are, as kube-controller-manager's. */
export const LEASE_NAMESPACE = 'kube-system';

export type LeaseSpec = NonNullable<Lease['spec']>;

/** What a controller's elector hears of its Lease: its new state, or (undefined) its deletion at `resourceVersion`. */
export type LeaseObserver = (lease: Lease | undefined, resourceVersion: bigint) => void;

/**
 * The Leases of the controllers in `kube-system`: read from this instance's shared informer (so that a write by
 * another instance, or by SQL, is seen as the change feed delivers it), written through the generic registry in
 * process, each update on the condition that the Lease is still at the resourceVersion its writer last saw.
 */
@Injectable()
export class ControllerLeases {
  private readonly informer: SharedInformer;
  private readonly observers = new Map<string, LeaseObserver>();
  private def?: KindDefinition;

  constructor(
    informers: InformerFactory,
    private readonly kinds: KindRegistry,
    private readonly registry: GenericRegistry,
  ) {
    this.informer = informers.informerFor({ group: COORDINATION_V1.group, resource: 'leases', namespace: LEASE_NAMESPACE });
    const tell = (lease: Lease, resourceVersion: bigint) => this.observers.get(lease.metadata.name as string)?.(lease, resourceVersion);
    this.informer.addEventHandler({
      added: (lease) => tell(lease as Lease, BigInt(lease.metadata.resourceVersion as string)),
      updated: (lease) => tell(lease as Lease, BigInt(lease.metadata.resourceVersion as string)),
      deleted: (lease, resourceVersion) => this.observers.get(lease.metadata.name as string)?.(undefined, resourceVersion),
    });
  }

  /** Follows the Lease `name`: `observer` hears of each of its changes. */
  observe(name: string, observer: LeaseObserver): void {
    this.observers.set(name, observer);
  }

  forget(name: string): void {
    this.observers.delete(name);
  }

  /** Resolves once the informer is current (it starts on the first call; a failed start is tried again at the next). */
  ready(): Promise<void> {
    return this.informer.start();
  }

  /** The Lease as the informer holds it. */
  cached(name: string): Lease | undefined {
    return this.informer.get(objectKey(LEASE_NAMESPACE, name)) as Lease | undefined;
  }

  create(name: string, spec: LeaseSpec): Promise<Lease> {
    const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: LEASE_NAMESPACE }, spec };
    return this.registry.create(this.leaseKind(), lease) as Promise<Lease>;
  }

  /** Replaces the spec of the Lease as it was at `seen`; 409 when it has changed since. */
  update(seen: Lease, spec: LeaseSpec): Promise<Lease> {
    const name = seen.metadata.name as string;
    return this.registry.update(this.leaseKind(), LEASE_NAMESPACE, name, (current) => {
      if (current.metadata.resourceVersion !== seen.metadata.resourceVersion) {
        throw apiErrors.conflict(this.leaseKind(), name, 'the object has been modified; please apply your changes to the latest version and try again');
      }
      return { ...current, spec };
    }) as Promise<Lease>;
  }

  private leaseKind(): KindDefinition {
    this.def ??= this.kinds.find(COORDINATION_V1.group, COORDINATION_V1.version, 'leases');
    if (!this.def) throw new Error('coordination.k8s.io/v1 leases are not registered');
    return this.def;
  }
}
