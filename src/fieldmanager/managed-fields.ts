import { isPlainObject, ManagedFieldsEntry } from '../apimachinery/meta/kube-object';
import { FieldSet } from './field-set';

export type Operation = 'Apply' | 'Update';

/** One manager's fields, as `metadata.managedFields` holds them once decoded. */
export interface Manager {
  manager: string;
  operation: Operation;
  apiVersion: string;
  time?: string;
  subresource?: string;
  /** the fields (of a stored entry, decoded when first read) */
  readonly fields: FieldSet;
  /** the entry's FieldsV1 as stored, while the manager's fields are still those */
  readonly stored?: Readonly<Record<string, unknown>>;
}

/**
 * The managers of an object by identity: the manager's name, its operation and subresource, and for an Update its
 * API version too (an appliers' entry follows it from version to version; an updater has one per version).
 */
export type Managers = Map<string, Manager>;

export function managerId(manager: Pick<Manager, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  const version = manager.operation === 'Update' ? manager.apiVersion : '';
  return JSON.stringify([manager.manager, manager.operation, version, manager.subresource ?? '']);
}

/** The manager with other fields (and no stored form any more). */
export function withFields(manager: Manager, fields: FieldSet): Manager {
  const { manager: name, operation, apiVersion, time, subresource } = manager;
  return { manager: name, operation, apiVersion, fields, ...(time !== undefined && { time }), ...(subresource && { subresource }) };
}

/** Whether a manager's fields hold any path of `set`; a stored entry is read as it stands. */
export const owns = (manager: Manager, set: FieldSet): boolean =>
  manager.stored ? set.meets(manager.stored) : !manager.fields.intersection(set).isEmpty();

/**
 * The managers an object's entries name; undefined when an entry is malformed. With `lazily`, the entries' fields
 * (which are checked when the server writes them) are decoded only when read: most writes touch one or two managers.
 */
export function decodeManagers(entries: readonly ManagedFieldsEntry[] | null | undefined, lazily = false): Managers | undefined {
  const managers: Managers = new Map();
  for (const entry of entries ?? []) {
    if (entry.operation !== 'Apply' && entry.operation !== 'Update') return undefined;
    if (!entry.apiVersion || entry.fieldsType !== 'FieldsV1') return undefined;
    const stored = entry.fieldsV1 ?? {};
    if (!isPlainObject(stored)) return undefined;
    let fields = lazily ? undefined : FieldSet.fromFieldsV1(stored);
    if (!lazily && !fields) return undefined;
    const manager: Manager = {
      manager: entry.manager ?? '',
      operation: entry.operation,
      apiVersion: entry.apiVersion,
      ...(entry.time !== undefined && { time: entry.time }),
      ...(entry.subresource && { subresource: entry.subresource }),
      stored,
      get fields() {
        return (fields ??= FieldSet.fromFieldsV1(stored) ?? new FieldSet());
      },
    };
    managers.set(managerId(manager), manager);
  }
  return managers;
}

/** The entries of the managers, in the apiserver's order: by operation, time (to the second), name, version, subresource. */
export function encodeManagers(managers: Managers): ManagedFieldsEntry[] {
  const sorted = [...managers.values()].sort(
    (p, q) =>
      compareText(p.operation, q.operation) ||
      seconds(p.time) - seconds(q.time) ||
      compareText(p.manager, q.manager) ||
      compareText(p.apiVersion, q.apiVersion) ||
      compareText(p.subresource ?? '', q.subresource ?? ''),
  );
  return sorted.map((m) => ({
    manager: m.manager,
    operation: m.operation,
    apiVersion: m.apiVersion,
    ...(m.time !== undefined && { time: m.time }),
    fieldsType: 'FieldsV1',
    fieldsV1: (m.stored ?? m.fields.toFieldsV1()) as Record<string, unknown>,
    ...(m.subresource && { subresource: m.subresource }),
  }));
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const seconds = (time: string | undefined) => (time ? Math.floor(Date.parse(time) / 1000) : 0);
