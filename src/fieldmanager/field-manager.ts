import { apiErrors } from '../apimachinery/errors/status-error';
import { isPlainObject, KubeObject, nowTimestamp } from '../apimachinery/meta/kube-object';
import { ApplyType } from './apply-type';
import { applyConflict } from './apply-conflict';
import { fieldElement, FieldSet } from './field-set';
import { deepEqual } from '../apimachinery/meta/deep-equal';
import { decodeManagers, encodeManagers, Manager, managerId, Managers, owns, withFields } from './managed-fields';
import { compare, Comparison, fieldSetOf, merge, removeUnkept } from './typed-value';
import { VersionConverter } from './version-converter';
import { VersionedChange } from './versioned-change';
import { copyJson } from '../apimachinery/meta/json-value';

/** The annotation of kubectl's client-side apply, which server-side apply keeps up to date once it is there. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** The manager kubectl applies as by default, the one allowed to take over client-side apply's fields. */
const KUBECTL = 'kubectl';
/** Who owns what an object held before its first apply, when nobody tracked its fields yet. */
const BEFORE_FIRST_APPLY = 'before-first-apply';
/** Updaters beyond this many are merged, oldest first, into one per version. */
const MAX_UPDATE_MANAGERS = 10;
const ANCIENT_CHANGES = 'ancient-changes';

const f = fieldElement;
/** Fields the server sets, which nobody owns. */
const SERVER_FIELDS = FieldSet.of(
  [f('apiVersion')],
  [f('kind')],
  [f('metadata')],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map(
    (name) => [f('metadata'), f(name)],
  ),
);

export interface FieldManagerScope {
  /** the type of the objects the path writes */
  type: ApplyType;
  /** the API version entries are recorded in */
  apiVersion: string;
  /** the subresource entries name; undefined for the main resource */
  subresource?: string;
  /** what a write on this path cannot change (the status on the main resource, all but it on `/status`) */
  reset: FieldSet;
  /** the other versions the objects are served in; without it, every manager's fields are read as in `apiVersion` */
  versions?: VersionConverter;
}

/**
 * Keeps `metadata.managedFields` for the writes of one path of a kind, as the apiserver's field manager does around
 * its handlers: every create, update and patch adds what it changed to its manager's Update entry; an apply merges
 * the configuration, removes the fields the manager stopped applying that nobody else owns, and refuses (409) to
 * change fields another manager owns unless forced, which takes them over.
 */
export class FieldManager {
  constructor(private readonly scope: FieldManagerScope) {}

  /** Sets `next.metadata.managedFields` after `manager`'s write of it over `live` (undefined for a create). */
  update(live: KubeObject | undefined, next: KubeObject, manager: string): void {
    const managers = this.managersOfUpdate(live, next);
    delete next.metadata.managedFields;
    if (managers.size === 0 && live) return; // an object nobody tracks stays untracked until its first apply
    const id = managerId({ manager, operation: 'Update', apiVersion: this.scope.apiVersion, subresource: this.scope.subresource });
    const change = this.change(live, next);
    const { comparison } = change;
    this.settle(managers, change, undefined, true);
    const changed = comparison.modified.union(comparison.added).difference(SERVER_FIELDS);
    if (!changed.isEmpty()) {
      // a write that changed nothing leaves its manager's entry (and its time) as it was
      const previous = managers.get(id)?.fields;
      this.record(managers, id, { ...this.entry(manager, 'Update'), fields: previous ? previous.union(changed) : changed, time: nowTimestamp() });
      capUpdaters(managers);
    }
    this.encode(next, managers);
  }

  /**
   * The object after `manager` applies `config` to `live` (undefined when the object does not exist yet), with its
   * managed fields; a StatusError (409) on conflicts unless `force`.
   */
  apply(live: KubeObject | undefined, config: KubeObject, manager: string, force: boolean): KubeObject {
    const managers = decodeManagers(live?.metadata.managedFields, true);
    if (!managers) throw apiErrors.internal('failed to decode managed fields');
    const base = live ? withoutManagedFields(live) : { metadata: {} };
    if (live && managers.size === 0) this.ownExistingFields(managers, base);
    const id = managerId({ manager, operation: 'Apply', apiVersion: this.scope.apiVersion, subresource: this.scope.subresource });
    const previous = managers.get(id);
    const fields = fieldSetOf(config, this.scope.type).withoutPrefixes(this.scope.reset);
    managers.set(id, { ...this.entry(manager, 'Apply'), fields, time: previous?.time });
    let merged = merge(base, config, this.scope.type) as KubeObject;
    if (previous && !previous.fields.isEmpty()) merged = this.prune(merged, managers, previous);
    const change = this.change(base, merged);
    const { comparison } = change;
    const conflicts = this.settle(managers, change, id, force);
    if (conflicts.size > 0) {
      const allowed = manager === KUBECTL ? this.clientSideApplied(live) : undefined;
      const takenOver = allowed && [...conflicts.values()].every((set) => set.difference(allowed).isEmpty());
      if (!takenOver) throw applyConflict(conflicts);
      this.settle(managers, change, id, true);
    }
    const applied = managers.get(id) as Manager;
    this.record(managers, id, { ...applied, time: comparison.isEmpty() ? applied.time : nowTimestamp() });
    if (manager === KUBECTL && merged.metadata.annotations?.[LAST_APPLIED_ANNOTATION]) {
      merged.metadata = { ...merged.metadata, annotations: { ...merged.metadata.annotations, [LAST_APPLIED_ANNOTATION]: lastAppliedOf(config) } };
    }
    this.encode(merged, managers);
    return merged;
  }

  /**
   * The managers an update starts from: those the request carries when it sets valid ones (a client may rewrite
   * them; an empty list resets them), else the stored ones. A subresource keeps the stored ones.
   */
  private managersOfUpdate(live: KubeObject | undefined, next: KubeObject): Managers {
    const sent = next.metadata.managedFields;
    const stored = live?.metadata.managedFields;
    if (!this.scope.subresource && !deepEqual(sent, stored)) {
      if (Array.isArray(sent) && (sent.length === 0 || (sent.length === 1 && Object.keys(sent[0] ?? {}).length === 0))) return new Map();
      const managers = decodeManagers(sent);
      if (managers && managers.size > 0) return managers;
    }
    return decodeManagers(stored, true) ?? new Map();
  }

  /** Gives what an object holds before its first apply to one updater, so that the apply cannot silently take it. */
  private ownExistingFields(managers: Managers, live: KubeObject): void {
    const fields = this.compare(undefined, live);
    const id = managerId({ manager: BEFORE_FIRST_APPLY, operation: 'Update', apiVersion: this.scope.apiVersion, subresource: this.scope.subresource });
    this.record(managers, id, { ...this.entry(BEFORE_FIRST_APPLY, 'Update'), fields: fields.added.union(fields.modified), time: nowTimestamp() });
  }

  /** What changed, leaving out what this path resets (and the managed fields themselves). */
  private compare(live: KubeObject | undefined, next: KubeObject): Comparison {
    return this.compareBare(live && withoutManagedFields(live), withoutManagedFields(next));
  }

  /** The same for objects without managed fields. */
  private compareBare(live: KubeObject | undefined, next: KubeObject): Comparison {
    const comparison = compare(live ?? { metadata: {} }, next, this.scope.type);
    const { reset } = this.scope;
    return new Comparison(comparison.added.withoutPrefixes(reset), comparison.modified.withoutPrefixes(reset), comparison.removed.withoutPrefixes(reset));
  }

  /** The change, compared in the request's version and, for managers of other versions, in theirs. */
  private change(live: KubeObject | undefined, next: KubeObject): VersionedChange {
    const { apiVersion, versions } = this.scope;
    const [before, after] = [live && withoutManagedFields(live), withoutManagedFields(next)];
    return new VersionedChange(this.compareBare(before, after), apiVersion, versions, before, after);
  }

  /**
   * What the change takes from the other managers, each seen in its own version: fields it removed, and fields it
   * set that they owned, which are conflicts. Unless forced, conflicts are answered and nothing is taken. Managers
   * of a version the objects are no longer served in go.
   */
  private settle(managers: Managers, change: VersionedChange, self: string | undefined, force: boolean): Map<Manager, FieldSet> {
    const conflicts = new Map<Manager, FieldSet>();
    const touched: [string, Manager, FieldSet][] = [];
    for (const [id, manager] of managers) {
      if (id === self) continue;
      const inVersion = change.in(manager.apiVersion);
      if (!inVersion) {
        managers.delete(id);
        continue;
      }
      const { changed, removed } = inVersion;
      if (!owns(manager, changed) && !owns(manager, removed)) continue;
      touched.push([id, manager, changed.union(removed)]);
      const conflict = manager.fields.intersection(changed);
      if (!conflict.isEmpty()) conflicts.set(manager, conflict);
    }
    if (conflicts.size > 0 && !force) return conflicts;
    for (const [id, manager, taken] of touched) {
      const rest = manager.fields.difference(taken);
      if (rest.isEmpty()) managers.delete(id);
      else managers.set(id, withFields(manager, rest));
    }
    return new Map();
  }

  /**
   * Removes from the merged object what the applier applied before (`previous`) and applies no more, unless another
   * manager (or the new configuration) has it. The fields are removed in the version the applier applied them in,
   * and what that removes is given back where a manager of another version owns it (structured-merge-diff's prune).
   */
  private prune(merged: KubeObject, managers: Managers, previous: Manager): KubeObject {
    const { apiVersion, type, versions } = this.scope;
    const held = new Map<string, FieldSet[]>();
    for (const manager of managers.values()) held.set(manager.apiVersion, [...(held.get(manager.apiVersion) ?? []), manager.fields]);
    if (!versions || (previous.apiVersion === apiVersion && held.size === 1)) {
      const pruned = copyJson(merged);
      removeUnkept(pruned, type, previous.fields, [...managers.values()].map((m) => m.fields));
      return pruned;
    }
    const lastForm = versions.form(previous.apiVersion);
    if (!lastForm) return merged;
    let version = previous.apiVersion;
    let pruned = copyJson(versions.convert(merged, apiVersion, version));
    removeUnkept(pruned, lastForm.type, previous.fields, held.get(version) ?? []);
    for (const [other, sets] of held) {
      const form = other !== previous.apiVersion && versions.form(other);
      if (!form) continue;
      const mergedThere = versions.convert(merged, apiVersion, other);
      const { removed } = compare(mergedThere, versions.convert(pruned, version, other), form.type);
      if (removed.isEmpty()) continue;
      pruned = copyJson(mergedThere);
      removeUnkept(pruned, form.type, removed, sets);
      version = other;
    }
    return versions.convert(pruned, version, apiVersion);
  }

  /** Stores a manager's entry without the fields the server sets; an entry left empty goes. */
  private record(managers: Managers, id: string, manager: Manager): void {
    const fields = manager.fields.difference(SERVER_FIELDS);
    if (fields.isEmpty()) managers.delete(id);
    else managers.set(id, withFields(manager, fields));
  }

  private entry(manager: string, operation: Manager['operation']): Omit<Manager, 'fields'> {
    return { manager, operation, apiVersion: this.scope.apiVersion, ...(this.scope.subresource && { subresource: this.scope.subresource }) };
  }

  private encode(object: KubeObject, managers: Managers): void {
    if (managers.size === 0) delete object.metadata.managedFields;
    else object.metadata.managedFields = encodeManagers(managers);
  }

  /**
   * The fields kubectl's client-side apply last set and that still hold the values it set: kubectl's first
   * server-side apply takes them over instead of conflicting with the client-side apply's updater.
   */
  private clientSideApplied(live: KubeObject | undefined): FieldSet | undefined {
    const text = live?.metadata.annotations?.[LAST_APPLIED_ANNOTATION];
    if (!text) return undefined;
    let lastApplied: unknown;
    try {
      lastApplied = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (!isPlainObject(lastApplied) || lastApplied.apiVersion !== this.scope.apiVersion) return undefined;
    const since = compare(lastApplied, withoutManagedFields(live as KubeObject), this.scope.type);
    return fieldSetOf(lastApplied, this.scope.type).difference(since.modified).difference(since.added).difference(since.removed);
  }
}

function withoutManagedFields(object: KubeObject): KubeObject {
  if (object.metadata.managedFields === undefined) return object;
  const { managedFields: _managed, ...metadata } = object.metadata;
  return { ...object, metadata };
}

/** Merges the oldest updaters into one `ancient-changes` entry per version while there are too many. */
function capUpdaters(managers: Managers): void {
  const updaters = [...managers].filter(([, m]) => m.operation === 'Update');
  if (updaters.length <= MAX_UPDATE_MANAGERS) return;
  updaters.sort(([idA, a], [idB, b]) => seconds(a.time) - seconds(b.time) || (idA < idB ? -1 : 1));
  const firstOfVersion = new Map<string, string>();
  let count = updaters.length;
  for (const [id, manager] of updaters) {
    if (count <= MAX_UPDATE_MANAGERS) break;
    const bucketId = managerId({ manager: ANCIENT_CHANGES, operation: 'Update', apiVersion: manager.apiVersion });
    const first = firstOfVersion.get(manager.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(manager.apiVersion, id);
      continue;
    }
    let bucket = managers.get(bucketId);
    if (!bucket) {
      bucket = managers.get(first) as Manager;
      managers.delete(first);
    }
    managers.delete(id);
    const merged = withFields({ ...bucket, manager: ANCIENT_CHANGES, subresource: undefined, time: manager.time }, bucket.fields.union(manager.fields));
    managers.set(bucketId, merged);
    firstOfVersion.set(manager.apiVersion, bucketId);
    count -= 1;
  }
}

const seconds = (time: string | undefined) => (time ? Math.floor(Date.parse(time) / 1000) : 0);

/** The annotation's text: the applied configuration without the annotation, as Go's JSON writes a map (keys sorted). */
function lastAppliedOf(config: KubeObject): string {
  const annotations = { ...config.metadata.annotations };
  delete annotations[LAST_APPLIED_ANNOTATION];
  const metadata = { ...config.metadata, annotations };
  if (Object.keys(annotations).length === 0) delete (metadata as { annotations?: unknown }).annotations;
  return JSON.stringify(sortedKeys({ ...config, metadata }));
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.keys(value).sort().filter((k) => value[k] !== undefined).map((k) => [k, sortedKeys(value[k])]));
}
