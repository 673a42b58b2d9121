import { deepEqual } from '../apimachinery/meta/deep-equal';
import { isPlainObject } from '../apimachinery/meta/kube-object';
import { ApplyType, KeyedListType } from './apply-type';
import { fieldElement, FieldSet, keyElement, PathElement, valueElement } from './field-set';

/**
 * The typed operations of server-side apply on JSON values (structured-merge-diff's typed package): the set of
 * fields a value sets, the comparison of two values, the merge of an applied configuration into an object, and the
 * removal of fields no manager keeps.
 */

type Json = Record<string, unknown>;

const ATOMIC: ApplyType = { kind: 'atomic' };

/** A value's children, each with its path element and type; undefined for a leaf (or a value of the wrong shape). */
function childrenOf(value: unknown, type: ApplyType): Map<PathElement, { value: unknown; type: ApplyType }> | undefined {
  switch (type.kind) {
    case 'struct':
    case 'map': {
      if (!isPlainObject(value)) return undefined;
      const children = new Map<PathElement, { value: unknown; type: ApplyType }>();
      for (const [key, child] of Object.entries(value)) {
        if (child === undefined) continue;
        children.set(fieldElement(key), { value: child, type: (type.kind === 'map' ? type.values : type.field(key)) ?? ATOMIC });
      }
      return children;
    }
    case 'set':
    case 'keyed': {
      if (!Array.isArray(value)) return undefined;
      const children = new Map<PathElement, { value: unknown; type: ApplyType }>();
      for (const item of value) {
        const element = type.kind === 'set' ? valueElement(item) : itemElement(type, item);
        children.set(element, { value: item, type: type.kind === 'set' ? ATOMIC : type.items });
      }
      return children;
    }
    default:
      return undefined;
  }
}

const itemElement = (type: KeyedListType, item: unknown): PathElement =>
  keyElement(type.keys, isPlainObject(item) ? item : {}, type.defaults);

const isEmptyObject = (value: unknown) => isPlainObject(value) && Object.keys(value).length === 0;

/**
 * The fields a value sets (ToFieldSet): its leaves, the items of its lists, the keys of its maps, and fields whose
 * value is an empty object; a struct field with something below it is implied by its children.
 */
export function fieldSetOf(value: unknown, type: ApplyType): FieldSet {
  const set = new FieldSet();
  addFields(value, type, set);
  return set;
}

function addFields(value: unknown, type: ApplyType, into: FieldSet): void {
  const children = childrenOf(value, type);
  if (!children) return;
  for (const [element, child] of children) {
    const below = new FieldSet();
    addFields(child.value, child.type, below);
    if (!below.isEmpty()) into.children.set(element, below);
    const leaf = !childrenOf(child.value, child.type);
    if (leaf || type.kind !== 'struct' || isEmptyObject(child.value)) into.members.add(element);
  }
}

/**
 * Every path of a value, containers included: what a value added or removed as a whole brings with it. When
 * `implied`, a struct with fields set below it is left to them, as the apiserver's comparison with the zero value of
 * a Go type (whose nested structs are there already) leaves it.
 */
function addEveryPath(value: unknown, type: ApplyType, into: FieldSet, implied: boolean): void {
  const children = childrenOf(value, type);
  if (!children) return;
  for (const [element, child] of children) {
    if (!(implied && isFilledStruct(element, child.value, child.type))) into.members.add(element);
    const below = new FieldSet();
    addEveryPath(child.value, child.type, below, implied);
    if (!below.isEmpty()) into.children.set(element, below);
  }
}

/** A struct field (not a list item) with fields set. */
const isFilledStruct = (element: PathElement, value: unknown, type: ApplyType) =>
  element.startsWith('f:') && type.kind === 'struct' && isPlainObject(value) && Object.keys(value).length > 0;

/** What changed from one value to another: paths added, leaves modified, paths removed. */
export class Comparison {
  readonly added = new FieldSet();
  readonly modified = new FieldSet();
  readonly removed = new FieldSet();

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
  const left = childrenOf(before, type) ?? new Map();
  const right = childrenOf(after, type) ?? new Map();
  for (const [element, r] of right) {
    const l = left.get(element);
    if (!l) {
      if (!isFilledStruct(element, r.value, r.type)) into.added.members.add(element);
      addBelow(into.added, element, (set) => addEveryPath(r.value, r.type, set, true));
    } else if (!childrenOf(l.value, l.type) || !childrenOf(r.value, r.type)) {
      if (!deepEqual(l.value, r.value)) into.modified.members.add(element);
    } else {
      const below = new Comparison();
      compareInto(l.value, r.value, r.type, below);
      if (!below.added.isEmpty()) into.added.children.set(element, below.added);
      if (!below.modified.isEmpty()) into.modified.children.set(element, below.modified);
      if (!below.removed.isEmpty()) into.removed.children.set(element, below.removed);
    }
  }
  for (const [element, l] of left) {
    if (right.has(element)) continue;
    into.removed.members.add(element);
    addBelow(into.removed, element, (set) => addEveryPath(l.value, l.type, set, false));
  }
}

function addBelow(set: FieldSet, element: PathElement, fill: (below: FieldSet) => void): void {
  const below = new FieldSet();
  fill(below);
  if (!below.isEmpty()) set.children.set(element, below);
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
        if (value === undefined) continue;
        out[key] = merge(live[key], value, (type.kind === 'map' ? type.values : type.field(key)) ?? ATOMIC);
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
  const liveItems = childrenOf(live, type) as Map<PathElement, { value: unknown; type: ApplyType }>;
  const configItems = [...(childrenOf(config, type) as Map<PathElement, { value: unknown; type: ApplyType }>)];
  const out: unknown[] = [];
  const emitted = new Set<PathElement>();
  let next = 0;
  const emitConfigUpTo = (until?: PathElement) => {
    while (next < configItems.length) {
      const [element, item] = configItems[next++];
      emitted.add(element);
      out.push(merge(liveItems.get(element)?.value, item.value, item.type));
      if (element === until) return;
    }
  };
  for (const [element, item] of liveItems) {
    if (configItems.every(([configElement]) => configElement !== element)) out.push(item.value);
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
  const children = childrenOf(value, type);
  if (!children) return;
  const dropped = new Set<PathElement>();
  for (const [element, child] of children) {
    if (holds(last, element) && !keep.some((set) => holds(set, element))) {
      dropped.add(element);
      continue;
    }
    const lastBelow = last.children.get(element);
    if (!lastBelow) continue;
    const keepBelow = keep.map((set) => set.children.get(element)).filter((set): set is FieldSet => !!set);
    removeUnkept(child.value, child.type, lastBelow, keepBelow);
    if (isEmptyCollection(child.value, child.type)) dropped.add(element);
  }
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
