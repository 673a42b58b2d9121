import { deepEqual } from '../apimachinery/meta/deep-equal';
import { isPlainObject } from '../apimachinery/meta/kube-object';
import { ApplyType, KeyedListType } from './apply-type';
import { FieldSet, fieldElement, keyElement, PathElement, valueElement } from './field-set';

/**
 * The typed operations of server-side apply on JSON values (structured-merge-diff's typed package): the set of
 * fields a value sets, the comparison of two values, the merge of an applied configuration into an object, and the
 * removal of fields no manager keeps. They run on every write, so they walk objects directly, without copies.
 */

type Json = Record<string, unknown>;
type Visit = (element: PathElement, value: unknown, type: ApplyType) => void;

const ATOMIC: ApplyType = { kind: 'atomic' };
const NONE: Json = {};

const memberType = (type: ApplyType, key: string): ApplyType =>
  (type.kind === 'map' ? type.values : type.kind === 'struct' ? type.field(key) : undefined) ?? ATOMIC;

const itemElement = (type: KeyedListType, item: unknown): PathElement =>
  keyElement(type.keys, isPlainObject(item) ? item : {}, type.defaults);

/** Whether the value has children of its own under the type (a merged struct, map or list, not a leaf). */
function isContainer(value: unknown, type: ApplyType): boolean {
  switch (type.kind) {
    case 'struct':
    case 'map':
      return isPlainObject(value);
    case 'set':
    case 'keyed':
      return Array.isArray(value);
    default:
      return false;
  }
}

/** Calls `visit` with each child of a container: its path element, value and type. */
function forEachChild(value: unknown, type: ApplyType, visit: Visit): void {
  if (type.kind === 'struct' || type.kind === 'map') {
    const object = value as Json;
    for (const key in object) {
      const child = object[key];
      if (child !== undefined) visit(fieldElement(key), child, memberType(type, key));
    }
  } else if (type.kind === 'set') {
    for (const item of value as unknown[]) visit(valueElement(item), item, ATOMIC);
  } else if (type.kind === 'keyed') {
    for (const item of value as unknown[]) visit(itemElement(type, item), item, type.items);
  }
}

/** The items of a list by their path elements. */
function itemsOf(value: unknown, type: ApplyType): Map<PathElement, unknown> {
  const items = new Map<PathElement, unknown>();
  if (Array.isArray(value)) for (const item of value) items.set(type.kind === 'set' ? valueElement(item) : itemElement(type as KeyedListType, item), item);
  return items;
}

const isEmptyObject = (value: unknown) => isPlainObject(value) && Object.keys(value).length === 0;

/** A struct field (not a list item) with fields set. */
const isFilledStruct = (element: PathElement, value: unknown, type: ApplyType) =>
  type.kind === 'struct' && element.startsWith('f:') && isPlainObject(value) && !isEmptyObject(value);

/** Fills a child set of `parent` under `element`, attached only when something went in. */
function below(parent: FieldSet, element: PathElement, fill: (set: FieldSet) => void): void {
  const set = new FieldSet();
  fill(set);
  if (!set.isEmpty()) parent.children.set(element, set);
}

/**
 * The fields a value sets (ToFieldSet): its leaves, the items of its lists, the keys of its maps, and fields whose
 * value is an empty object; a struct field with something below it is implied by its children.
 */
export function fieldSetOf(value: unknown, type: ApplyType): FieldSet {
  const set = new FieldSet();
  if (isContainer(value, type)) addFields(value, type, set);
  return set;
}

function addFields(value: unknown, type: ApplyType, into: FieldSet): void {
  forEachChild(value, type, (element, child, childType) => {
    const container = isContainer(child, childType);
    if (container) below(into, element, (set) => addFields(child, childType, set));
    if (!container || type.kind !== 'struct' || isEmptyObject(child)) into.members.add(element);
  });
}

/**
 * Every path of a value, containers included: what a value added or removed as a whole brings with it. When
 * `implied`, a struct with fields set below it is left to them, as the apiserver's comparison with the zero value of
 * a Go type (whose nested structs are there already) leaves it.
 */
function addEveryPath(value: unknown, type: ApplyType, into: FieldSet, implied: boolean): void {
  forEachChild(value, type, (element, child, childType) => {
    if (!(implied && isFilledStruct(element, child, childType))) into.members.add(element);
    if (isContainer(child, childType)) below(into, element, (set) => addEveryPath(child, childType, set, implied));
  });
}

/** What changed from one value to another: paths added, leaves modified, paths removed. */
export class Comparison {
  constructor(
    readonly added = new FieldSet(),
    readonly modified = new FieldSet(),
    readonly removed = new FieldSet(),
  ) {}

  isEmpty(): boolean {
    return this.added.isEmpty() && this.modified.isEmpty() && this.removed.isEmpty();
  }
}

export function compare(before: unknown, after: unknown, type: ApplyType): Comparison {
  const comparison = new Comparison();
  compareInto(before, after, type, comparison);
  return comparison;
}

function compareInto(before: unknown, after: unknown, type: ApplyType, into: Comparison): void {
  const compareChild = (element: PathElement, l: unknown, r: unknown, childType: ApplyType) => {
    if (l === undefined) {
      if (!isFilledStruct(element, r, childType)) into.added.members.add(element);
      if (isContainer(r, childType)) below(into.added, element, (set) => addEveryPath(r, childType, set, true));
    } else if (r === undefined) {
      into.removed.members.add(element);
      if (isContainer(l, childType)) below(into.removed, element, (set) => addEveryPath(l, childType, set, false));
    } else if (isContainer(l, childType) && isContainer(r, childType)) {
      const child = new Comparison();
      compareInto(l, r, childType, child);
      if (!child.added.isEmpty()) into.added.children.set(element, child.added);
      if (!child.modified.isEmpty()) into.modified.children.set(element, child.modified);
      if (!child.removed.isEmpty()) into.removed.children.set(element, child.removed);
    } else if (!deepEqual(l, r)) {
      into.modified.members.add(element);
    }
  };
  if (type.kind === 'struct' || type.kind === 'map') {
    const left = isPlainObject(before) ? before : NONE;
    const right = isPlainObject(after) ? after : NONE;
    for (const key in right) if (right[key] !== undefined) compareChild(fieldElement(key), left[key], right[key], memberType(type, key));
    for (const key in left) if (left[key] !== undefined && right[key] === undefined) compareChild(fieldElement(key), left[key], undefined, memberType(type, key));
    return;
  }
  const itemType = type.kind === 'keyed' ? type.items : ATOMIC;
  const left = itemsOf(before, type);
  const right = itemsOf(after, type);
  for (const [element, item] of right) compareChild(element, left.get(element), item, itemType);
  for (const [element, item] of left) if (!right.has(element)) compareChild(element, item, undefined, itemType);
}

/**
 * An applied configuration merged into an object: the configuration's leaves and atomic values win, structs and
 * maps merge key by key, sets and keyed lists item by item, in the configuration's order for the items it names
 * and with the object's other items where they stood. Neither input is changed; the result shares their values.
 */
export function merge(live: unknown, config: unknown, type: ApplyType): unknown {
  if (live === undefined) return config;
  switch (type.kind) {
    case 'struct':
    case 'map': {
      if (!isPlainObject(live) || !isPlainObject(config)) return config;
      const out: Json = { ...live };
      for (const [key, value] of Object.entries(config)) {
        if (value !== undefined) out[key] = merge(live[key], value, memberType(type, key));
      }
      return out;
    }
    case 'set':
    case 'keyed':
      return Array.isArray(live) && Array.isArray(config) ? mergeItems(live, config, type) : config;
    default:
      return config;
  }
}

function mergeItems(live: unknown[], config: unknown[], type: ApplyType): unknown[] {
  const itemType = type.kind === 'keyed' ? type.items : ATOMIC;
  const liveItems = itemsOf(live, type);
  const configItems = [...itemsOf(config, type)];
  const configElements = new Set(configItems.map(([element]) => element));
  const out: unknown[] = [];
  const emitted = new Set<PathElement>();
  let next = 0;
  const emitConfigUpTo = (until?: PathElement) => {
    while (next < configItems.length) {
      const [element, item] = configItems[next++];
      emitted.add(element);
      out.push(merge(liveItems.get(element), item, itemType));
      if (element === until) return;
    }
  };
  for (const [element, item] of liveItems) {
    if (!configElements.has(element)) out.push(item);
    else if (!emitted.has(element)) emitConfigUpTo(element);
  }
  emitConfigUpTo();
  return out;
}

/**
 * Removes from `value` (in place) what `last` holds and none of `keep` does: the fields a manager applied before and
 * applies no more, unless another manager (or the new configuration) has them. A struct field with fields below it
 * counts as held by whoever holds those.
 */
export function removeUnkept(value: unknown, type: ApplyType, last: FieldSet, keep: readonly FieldSet[]): void {
  const holds = (set: FieldSet, element: PathElement) => set.members.has(element) || (element.startsWith('f:') && set.children.has(element));
  const dropped = new Set<PathElement>();
  forEachChild(value, type, (element, child, childType) => {
    if (holds(last, element) && !keep.some((set) => holds(set, element))) {
      dropped.add(element);
      return;
    }
    const lastBelow = last.children.get(element);
    if (!lastBelow || !isContainer(child, childType)) return;
    const keepBelow = keep.map((set) => set.children.get(element)).filter((set): set is FieldSet => !!set);
    removeUnkept(child, childType, lastBelow, keepBelow);
    if (isEmptyCollection(child, childType)) dropped.add(element);
  });
  if (dropped.size === 0) return;
  if (Array.isArray(value)) {
    const kept = value.filter((item) => !dropped.has(type.kind === 'set' ? valueElement(item) : itemElement(type as KeyedListType, item)));
    value.splice(0, value.length, ...kept);
  } else {
    const object = value as Json;
    for (const key of Object.keys(object)) if (dropped.has(fieldElement(key))) delete object[key];
  }
}

/** A map or list that pruning emptied, which the apiserver's types leave out (omitempty). */
function isEmptyCollection(value: unknown, type: ApplyType): boolean {
  if (type.kind === 'map') return isEmptyObject(value);
  if (type.kind === 'set' || type.kind === 'keyed') return Array.isArray(value) && value.length === 0;
  return false;
}
