import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { StatusError } from '../apimachinery/errors/status-error';
import { KubeObject } from '../apimachinery/meta/kube-object';
import { KindRegistry } from '../registry/kind-registry';
import { DeleteOptions } from '../registry/store/delete-options';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../registry/store/deletion-policy';
import { GenericRegistry, Transform } from '../registry/store/generic-registry';
import { Settings } from '../config/settings';
import { Change } from '../storage/changes/change';
import { ALL_RESOURCES, ChangeFeed, FeedSubscriber } from '../watch/change-feed.service';
import { CollectorLeadership } from './collector-leadership';
import { ObjectGraph, StoredRow } from '../storage/object-graph';

/** The finalizers the garbage collector owns. */
const COLLECTOR_FINALIZERS = [ORPHAN_FINALIZER, FOREGROUND_FINALIZER];

const collectorFinalizers = (object: KubeObject) =>
  (object.metadata.finalizers ?? []).filter((f) => COLLECTOR_FINALIZERS.includes(f));

/** 404 and 409 mean someone else changed or removed the object first: the next event or sweep looks again. */
const raced = (error: unknown) => error instanceof StatusError && (error.code === 404 || error.code === 409);

/**
 * The garbage collector of kube-controller-manager, inside the server: it orphans the dependents
 * of an owner deleted with `orphan`, deletes those of an owner deleted with `foregroundDeletion` before it (waiting
 * for the ones with blockOwnerDeletion), and deletes dependents whose owners are all gone (background deletion).
 * It acts on each change from the feed, and sweeps everything when it starts leading and periodically, so that work
 * cut short by a restart is finished. Only the leading instance works (see CollectorLeadership).
 */
@Injectable()
export class GarbageCollector implements FeedSubscriber, OnModuleInit, OnApplicationShutdown {
  readonly key = ALL_RESOURCES;
  /** it acts on a change's type and metadata: uid, owner references, deletion timestamp and finalizers */
  readonly metadataOnly = true;
  /** its work is not urgent: the changes of many writes are read for it at once */
  readonly relaxed = true;
  private readonly logger = new Logger('GarbageCollector');
  private readonly queue = new Map<string, () => Promise<void>>();
  private working?: Promise<void>;
  private sweepTimer?: NodeJS.Timeout;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly leadership: CollectorLeadership,
    private readonly graph: ObjectGraph,
    private readonly registry: GenericRegistry,
    private readonly kinds: KindRegistry,
    private readonly settings: Settings,
  ) {}

  onModuleInit(): void {
    // Subscribed from the first time this instance leads: until then the feed need not read every object for it, and
    // the sweep on taking the lead covers whatever changed before.
    this.leadership.start(() => {
      this.feed.subscribe(this);
      this.enqueue('sweep', () => this.sweep());
    });
    this.sweepTimer = setInterval(() => {
      if (this.leadership.isLeader) this.enqueue('sweep', () => this.sweep());
    }, this.settings.GC_SWEEP_INTERVAL_SECONDS * 1000);
    this.sweepTimer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.sweepTimer);
    this.feed.unsubscribe(this);
    this.queue.clear();
    await this.working;
  }

  deliver(change: Change): void {
    if (!this.leadership.isLeader) return;
    const meta = change.object.metadata;
    const uid = meta.uid as string;
    if (change.type === 'DELETED') {
      this.enqueue(`dependents of ${uid}`, () => this.collectDependentsOf(uid));
      // an owner deleted in the foreground may have been waiting for this dependent
      for (const ref of meta.ownerReferences ?? []) if (ref.uid) this.enqueue(`owner ${ref.uid}`, () => this.finishOwnerByUid(ref.uid as string));
    } else if (meta.deletionTimestamp && collectorFinalizers(change.object).length > 0) {
      this.enqueue(`owner ${uid}`, () => this.finishOwnerByUid(uid));
    }
  }

  /** Every owner waiting for the collector, and every dependent whose owners are gone. */
  async sweep(): Promise<void> {
    for (const owner of await this.graph.terminatingWithAny(COLLECTOR_FINALIZERS)) await this.finishOwner(owner);
    for (const dependent of await this.graph.withMissingOwners()) await this.collectIfOwnersGone(dependent);
  }

  private enqueue(key: string, task: () => Promise<void>): void {
    if (!this.queue.has(key)) this.queue.set(key, task);
    this.working ??= this.drain().finally(() => (this.working = undefined));
  }

  private async drain(): Promise<void> {
    for (const [key, task] of this.queue) {
      this.queue.delete(key);
      try {
        if (this.leadership.isLeader) await task();
      } catch (error) {
        this.logger.warn(`${key}: ${(error as Error).message} (the next sweep retries)`);
      }
    }
  }

  private async finishOwnerByUid(uid: string): Promise<void> {
    const owner = await this.graph.byUid(uid);
    if (owner) await this.finishOwner(owner);
  }

  /** Does what an owner's `orphan` or `foregroundDeletion` finalizer asks, then removes the finalizer. */
  private async finishOwner(owner: StoredRow): Promise<void> {
    const meta = owner.object.metadata;
    const uid = meta.uid as string;
    if (!meta.deletionTimestamp) return;
    const finalizers = collectorFinalizers(owner.object);
    if (finalizers.includes(ORPHAN_FINALIZER)) {
      for (const dependent of await this.graph.dependentsOf(uid)) await this.removeOwnerReferences(dependent, new Set([uid]));
      await this.removeFinalizer(owner, ORPHAN_FINALIZER);
    } else if (finalizers.includes(FOREGROUND_FINALIZER)) {
      for (const dependent of await this.graph.dependentsOf(uid)) {
        if (dependent.object.metadata.deletionTimestamp) continue;
        const hasDependents = (await this.graph.dependentsOf(dependent.object.metadata.uid as string)).length > 0;
        await this.deleteObject(dependent, { propagationPolicy: hasDependents ? 'Foreground' : 'Background' });
      }
      const blocking = (await this.graph.dependentsOf(uid)).filter((d) =>
        d.object.metadata.ownerReferences?.some((ref) => ref.uid === uid && ref.blockOwnerDeletion),
      );
      if (blocking.length === 0) await this.removeFinalizer(owner, FOREGROUND_FINALIZER);
    }
  }

  private async collectDependentsOf(uid: string): Promise<void> {
    for (const dependent of await this.graph.dependentsOf(uid)) await this.collectIfOwnersGone(dependent);
  }

  /**
   * A dependent whose owners are all gone is deleted; one that still has an owner only loses the references to the
   * missing ones. Owners of kinds this server does not serve cannot be checked and count as present.
   */
  private async collectIfOwnersGone(dependent: StoredRow): Promise<void> {
    const references = dependent.object.metadata.ownerReferences ?? [];
    const checkable = references.filter((ref) => ref.uid && this.kinds.findByKind(ref.apiVersion ?? '', ref.kind ?? ''));
    if (checkable.length === 0) return;
    const present = await this.graph.existing(checkable.map((ref) => ref.uid as string));
    const missing = checkable.filter((ref) => !present.has(ref.uid as string)).map((ref) => ref.uid as string);
    if (missing.length === 0) return;
    if (missing.length === references.length) await this.deleteObject(dependent, { propagationPolicy: 'Background' });
    else await this.removeOwnerReferences(dependent, new Set(missing));
  }

  private removeOwnerReferences(row: StoredRow, uids: Set<string>): Promise<void> {
    return this.updateObject(row, (current) => {
      const kept = (current.metadata.ownerReferences ?? []).filter((ref) => !uids.has(ref.uid as string));
      if (kept.length > 0) current.metadata.ownerReferences = kept;
      else delete current.metadata.ownerReferences;
      return current;
    });
  }

  private removeFinalizer(row: StoredRow, finalizer: string): Promise<void> {
    return this.updateObject(row, (current) => {
      current.metadata.finalizers = (current.metadata.finalizers ?? []).filter((f) => f !== finalizer);
      return current;
    });
  }

  /** An update of the very object the collector looked at (same uid); a newer object of the same name is left alone. */
  private async updateObject(row: StoredRow, change: Transform): Promise<void> {
    const def = this.kinds.findStored(row.group, row.resource);
    const { name, namespace, uid } = row.object.metadata;
    if (!def) return;
    try {
      await this.registry.update(def, namespace || undefined, name as string, (current) =>
        current.metadata.uid === uid ? change(current) : current,
      );
    } catch (error) {
      if (!raced(error)) throw error;
    }
  }

  private async deleteObject(row: StoredRow, options: DeleteOptions): Promise<void> {
    const def = this.kinds.findStored(row.group, row.resource);
    const { name, namespace, uid } = row.object.metadata;
    if (!def) return;
    try {
      await this.registry.delete(def, namespace || undefined, name as string, { ...options, preconditions: { uid } });
    } catch (error) {
      if (!raced(error)) throw error;
    }
  }
}
