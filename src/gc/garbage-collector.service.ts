import { Injectable } from '@nestjs/common';
import { StatusError } from '../apimachinery/errors/status-error';
import { KubeObject } from '../apimachinery/meta/kube-object';
import { KindRegistry } from '../registry/kind-registry';
import { DeleteOptions } from '../registry/store/delete-options';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../registry/store/deletion-policy';
import { GenericRegistry, Transform } from '../registry/store/generic-registry';
import { Settings } from '../config/settings';
import { Change } from '../storage/changes/change';
import { ALL_RESOURCES, ChangeFeed, FeedSubscriber } from '../watch/change-feed.service';
import { Controller } from '../controller-manager/controller';
import { ControllerMetrics } from '../controller-manager/controller-metrics';
import { defaultControllerRateLimiter } from '../controller-manager/rate-limiter';
import { WorkQueue } from '../controller-manager/work-queue';
import { ObjectGraph, StoredRow } from '../storage/object-graph';

/** The finalizers the garbage collector owns. */
const COLLECTOR_FINALIZERS = [ORPHAN_FINALIZER, FOREGROUND_FINALIZER];

const collectorFinalizers = (object: KubeObject) =>
  (object.metadata.finalizers ?? []).filter((f) => COLLECTOR_FINALIZERS.includes(f));

/** The keys of its queue: a sweep, an owner's uid, the uid of a deleted object whose dependents are looked at. */
const SWEEP = 'sweep';
const OWNER = 'owner/';
const DEPENDENTS_OF = 'dependents-of/';

/** 404 and 409 mean someone else changed or removed the object first: the next event or sweep looks again. */
const raced = (error: unknown) => error instanceof StatusError && (error.code === 404 || error.code === 409);

/**
 * The garbage collector of kube-controller-manager, inside the server: it orphans the dependents
 * of an owner deleted with `orphan`, deletes those of an owner deleted with `foregroundDeletion` before it (waiting
 * for the ones with blockOwnerDeletion), and deletes dependents whose owners are all gone (background deletion).
 * It acts on each change from the feed, and sweeps everything when it starts leading and periodically, so that work
 * cut short by a restart is finished. The controller manager runs it on the instance that holds its Lease.
 */
@Injectable()
export class GarbageCollector implements Controller, FeedSubscriber {
  readonly name = 'garbagecollector';
  readonly key = ALL_RESOURCES;
  /** it acts on a change's type and metadata: uid, owner references, deletion timestamp and finalizers */
  readonly metadataOnly = true;
  /** its work is not urgent: the changes of many writes are read for it at once */
  readonly relaxed = true;
  private queue?: WorkQueue;
  private sweepTimer?: NodeJS.Timeout;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly graph: ObjectGraph,
    private readonly registry: GenericRegistry,
    private readonly kinds: KindRegistry,
    private readonly settings: Settings,
    private readonly metrics: ControllerMetrics,
  ) {}

  /** Follows the feed from the first lead (until then it need not read every object) and sweeps at once. */
  start(signal: AbortSignal): void {
    const queue = new WorkQueue(this.name, defaultControllerRateLimiter(), this.metrics, (key) => this.sync(key, signal));
    this.queue = queue;
    this.feed.subscribe(this);
    queue.add(SWEEP);
    this.sweepTimer = setInterval(() => queue.add(SWEEP), this.settings.GC_SWEEP_INTERVAL_SECONDS * 1000);
    this.sweepTimer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.sweepTimer);
    this.feed.unsubscribe(this);
    const queue = this.queue;
    this.queue = undefined;
    await queue?.shutdown();
  }

  deliver(change: Change): void {
    const queue = this.queue;
    if (!queue) return;
    const meta = change.object.metadata;
    const uid = meta.uid as string;
    if (change.type === 'DELETED') {
      queue.add(`${DEPENDENTS_OF}${uid}`);
      // an owner deleted in the foreground may have been waiting for this dependent
      for (const ref of meta.ownerReferences ?? []) if (ref.uid) queue.add(`${OWNER}${ref.uid}`);
    } else if (meta.deletionTimestamp && collectorFinalizers(change.object).length > 0) {
      queue.add(`${OWNER}${uid}`);
    }
  }

  /** Every owner waiting for the collector, and every dependent whose owners are gone. */
  private async sweep(): Promise<void> {
    for (const owner of await this.graph.terminatingWithAny(COLLECTOR_FINALIZERS)) await this.finishOwner(owner);
    for (const dependent of await this.graph.withMissingOwners()) await this.collectIfOwnersGone(dependent);
  }

  private async sync(key: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    if (key === SWEEP) await this.sweep();
    else if (key.startsWith(OWNER)) await this.finishOwnerByUid(key.slice(OWNER.length));
    else await this.collectDependentsOf(key.slice(DEPENDENTS_OF.length));
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
