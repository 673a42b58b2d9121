import { apiErrors } from '../errors/status-error';
import { deepEqual } from '../meta/deep-equal';
import { jsonType, ownMember, setMember, copyJson } from '../meta/json-value';
import { isPlainObject } from '../meta/kube-object';
import { FieldFacts, TypeFacts } from './strategic-merge-schema';

type JsonMap = Record<string, unknown>;

const PATCH_DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const SET_ELEMENT_ORDER = '$setElementOrder';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';

const show = (value: unknown) => JSON.stringify(value);
const fail = (message: string) => apiErrors.badRequest(message);
const noMergeKey = (item: unknown, mergeKey: string) => fail(`map: ${show(item)} does not contain declared merge key: ${mergeKey}`);
const notAMap = (value: unknown) => fail(`expected a map, but received a ${jsonType(value)}: ${show(value)}`);

const isDirectiveKey = (key: string) =>
  key === PATCH_DIRECTIVE ||
  key === RETAIN_KEYS ||
  key.startsWith(`${SET_ELEMENT_ORDER}/`) ||
  key.startsWith(`${DELETE_FROM_PRIMITIVE_LIST}/`);

/**
 * A value taken from the patch as it stands. Directives in it have nothing to act on: the typed decoding of the
 * apiserver drops them as unknown fields, and so are they dropped here. Members set to null are dropped too (there
 * is nothing to delete), as later releases do.
 */
function patchValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(patchValue);
  if (!isPlainObject(value)) return value;
  const plain: JsonMap = {};
  for (const [key, member] of Object.entries(value)) {
    if (member !== null && !isDirectiveKey(key)) setMember(plain, key, patchValue(member));
  }
  return plain;
}

const fieldFacts = (facts: TypeFacts | undefined, key: string): FieldFacts =>
  facts && Object.hasOwn(facts, key) ? facts[key] : {};

/** The field a `<prefix>/<field>` directive key names. */
function directiveField(key: string, prefix: string, malformed: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) throw fail(malformed);
  return key.slice(slash + 1);
}

/**
 * Applies a strategic merge patch to a copy of `original` as 1.7's `strategicpatch` package does: maps merge key
 * by key and `null` deletes; lists of fields with the `merge` strategy merge item by item (objects by their merge
 * key, primitives as a set), other lists are replaced; the `$patch`, `$retainKeys`, `$setElementOrder/<field>` and
 * `$deleteFromPrimitiveList/<field>` directives apply. Misused directives and malformed patches fail with 400.
 */
export function applyStrategicMergePatch(original: JsonMap, patch: unknown, facts: TypeFacts): JsonMap {
  if (!isPlainObject(patch)) throw fail(`a strategic merge patch must be a JSON object, not ${jsonType(patch)}`);
  return mergeMap(copyJson(original), copyJson(patch), facts);
}

function mergeMap(original: JsonMap, patch: JsonMap, facts: TypeFacts | undefined): JsonMap {
  if (Object.hasOwn(patch, PATCH_DIRECTIVE)) return mapDirective(patch);
  retainKeys(original, patch);
  for (const key of Object.keys(patch)) {
    if (key.startsWith(SET_ELEMENT_ORDER)) mergeOrderedList(original, patch, key, facts);
  }
  for (const [patchKey, value] of Object.entries(patch)) {
    const deleteList = patchKey.startsWith(DELETE_FROM_PRIMITIVE_LIST);
    const key = deleteList ? directiveField(patchKey, DELETE_FROM_PRIMITIVE_LIST, 'invalid patch format of primitive list') : patchKey;
    const current = ownMember(original, key);
    if (value === null) {
      delete original[key];
    } else if (current === undefined) {
      // removing values from a list that is not there changes nothing (1.7 added them; later releases fixed that)
      if (!deleteList) setMember(original, key, patchValue(value));
    } else if (isPlainObject(current) && isPlainObject(value)) {
      setMember(original, key, mergeMap(current, value, fieldFacts(facts, key).fields));
    } else if (Array.isArray(current) && Array.isArray(value)) {
      setMember(original, key, mergeListField(current, value, fieldFacts(facts, key), deleteList).list);
    } else {
      setMember(original, key, patchValue(value));
    }
  }
  return original;
}

/** `$patch` in an object: `replace` puts the patch in place of the object, `delete` empties it. */
function mapDirective(patch: JsonMap): JsonMap {
  const directive = patch[PATCH_DIRECTIVE];
  if (directive === 'delete') return {};
  if (directive !== 'replace') throw fail(`unknown patch type: ${String(directive)} in map: ${show(patch)}`);
  delete patch[PATCH_DIRECTIVE];
  return patchValue(patch) as JsonMap;
}

/** `$retainKeys`: every key the patch sets must be listed, and keys of the object not listed are removed. */
function retainKeys(original: JsonMap, patch: JsonMap): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS)) return;
  const retained = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  const malformed = () => fail('invalid patch format of retainKeys');
  if (!Array.isArray(retained)) throw malformed();
  for (const [key, value] of Object.entries(patch)) {
    const directive = key.startsWith(DELETE_FROM_PRIMITIVE_LIST) || key.startsWith(SET_ELEMENT_ORDER);
    if (value !== null && !directive && !retained.includes(key)) throw malformed();
  }
  for (const key of Object.keys(original)) if (!retained.includes(key)) delete original[key];
}

/**
 * A list field merged: `list` is the result, merged when the field's strategy says so and otherwise the patch's list.
 * `liveOrder` is the current list as 1.7's `$setElementOrder` then sees it: 1.7 removes items by shifting the
 * current list in place and appends added items to it, so the survivors come first and the added items take the
 * freed places (a server-only item then goes ahead of an item added in the same patch).
 */
interface MergedList {
  list: unknown[];
  liveOrder: unknown[];
}

function mergeListField(current: unknown[], patch: unknown[], field: FieldFacts, deleteList: boolean): MergedList {
  if (field.strategy !== 'merge') return { list: patchValue(patch) as unknown[], liveOrder: current };
  return mergeList(current, patch, field, deleteList);
}

/**
 * `$setElementOrder/<field>`: merges the patch's list for the field (when it has one), then puts the items the
 * order names in its order, with the items only the server has slotted in by their former positions.
 */
function mergeOrderedList(original: JsonMap, patch: JsonMap, orderKey: string, facts: TypeFacts | undefined): void {
  const order = patch[orderKey];
  delete patch[orderKey];
  const malformed = 'invalid patch format of setElementOrder list';
  if (!Array.isArray(order)) throw fail(malformed);
  const key = directiveField(orderKey, SET_ELEMENT_ORDER, malformed);
  const field = fieldFacts(facts, key);
  const current = ownMember(original, key);
  const patchList = ownMember(patch, key);
  if (current === undefined && patchList === undefined) return;
  for (const list of [current, patchList]) {
    if (list !== undefined && !Array.isArray(list)) throw fail(`expected a list for ${key}, but received a ${jsonType(list)}`);
  }
  const currentItems = (current ?? []) as unknown[];
  const patchItems = (patchList ?? []) as unknown[];
  checkPatchOrder(patchItems, order, field.mergeKey);
  let merged: MergedList;
  if (patchList === undefined) merged = { list: currentItems, liveOrder: currentItems };
  else if (current === undefined) merged = { list: patchValue(patchItems) as unknown[], liveOrder: [] };
  else merged = mergeListField(currentItems, patchItems, field, false);
  const empty = itemType([currentItems, patchItems]) === undefined;
  setMember(original, key, empty ? merged.list : ordered(merged.list, order, merged.liveOrder, field.mergeKey));
  delete patch[key];
}

/** The patch's items (deletions aside) must come in the same relative order as in `$setElementOrder`. */
function checkPatchOrder(patchItems: unknown[], order: unknown[], mergeKey: string | undefined): void {
  if (order.length === 0 || patchItems.length === 0) return;
  const kept = mergeKey ? patchItems.filter((item) => !isDeletion(item)) : patchItems;
  let p = 0;
  let o = 0;
  while (p < kept.length && o < order.length) {
    if (isPlainObject(kept[p]) && Object.hasOwn(kept[p] as JsonMap, PATCH_DIRECTIVE)) {
      p++;
      continue;
    }
    if (deepEqual(identity(kept[p], mergeKey), identity(order[o], mergeKey))) p++;
    o++;
  }
  if (p < kept.length) {
    throw fail(`The order in patch list:\n${show(patchItems)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${show(order)}\n`);
  }
}

function isDeletion(item: unknown): boolean {
  if (!isPlainObject(item)) throw notAMap(item);
  return item[PATCH_DIRECTIVE] === 'delete';
}

/** What identifies an item: its merge key's value for lists of objects, the item itself for primitives. */
function identity(item: unknown, mergeKey: string | undefined): unknown {
  if (!mergeKey) return item;
  if (!isPlainObject(item)) throw notAMap(item);
  if (!Object.hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
  return item[mergeKey];
}

/** The one JSON type of the items of the lists; undefined when they are empty. */
function itemType(lists: unknown[][]): string | undefined {
  let type: string | undefined;
  for (const item of lists.flat()) {
    const current = jsonType(item);
    if (type === undefined) {
      if (current === 'array') throw fail('lists of lists are not supported');
      type = current;
    } else if (current !== type) {
      throw fail(`list element types are not identical: ${show(lists)}`);
    }
  }
  return type;
}

/** A list with the `merge` strategy: a set of primitives, or objects merged by their merge key. */
function mergeList(current: unknown[], patch: unknown[], field: FieldFacts, deleteList: boolean): MergedList {
  const type = itemType([current, patch]);
  if (type === undefined) return { list: current, liveOrder: current };
  if (type !== 'object') {
    if (deleteList) return { list: current.filter((value) => !patch.some((removed) => deepEqual(value, removed))), liveOrder: current };
    const union = [...current, ...patch].filter((value, i, all) => all.findIndex((other) => deepEqual(other, value)) === i);
    return { list: ordered(union, patch, current, field.mergeKey), liveOrder: current };
  }
  const mergeKey = field.mergeKey;
  if (!mergeKey) throw fail('cannot merge lists without merge key');
  const { base, items, replaced } = listDirectives(current as JsonMap[], patch as JsonMap[], mergeKey);
  const merged = [...base];
  for (const item of items) {
    const key = identity(item, mergeKey);
    const index = merged.findIndex((existing) => Object.hasOwn(existing, mergeKey) && deepEqual(existing[mergeKey], key));
    if (index >= 0) merged[index] = mergeMap(merged[index], item, field.fields);
    else merged.push(patchValue(item) as JsonMap);
  }
  return {
    list: ordered(merged, items, base, mergeKey),
    liveOrder: replaced ? current : merged.slice(0, current.length),
  };
}

/**
 * The `$patch` items of a merged list of objects: `delete` removes the current items with that merge key,
 * `replace` makes the other patch items the whole list, and `merge` is not supported (as in 1.7).
 */
function listDirectives(
  current: JsonMap[],
  patch: JsonMap[],
  mergeKey: string,
): { base: JsonMap[]; items: JsonMap[]; replaced: boolean } {
  let base = current;
  let replace = false;
  const items: JsonMap[] = [];
  for (const item of patch) {
    if (!Object.hasOwn(item, PATCH_DIRECTIVE)) {
      items.push(item);
      continue;
    }
    const directive = item[PATCH_DIRECTIVE];
    if (directive === 'delete') {
      const key = identity(item, mergeKey);
      base = base.filter((existing) => !(Object.hasOwn(existing, mergeKey) && deepEqual(existing[mergeKey], key)));
    } else if (directive === 'replace') {
      replace = true;
    } else if (directive === 'merge') {
      throw fail('merging lists cannot yet be specified in the patch');
    } else {
      throw fail(`unknown patch type: ${String(directive)} in map: ${show(item)}`);
    }
  }
  return replace ? { base: patchValue(items) as JsonMap[], items: [], replaced: true } : { base, items, replaced: false };
}

/**
 * Orders a merged list: the items named in `order` come in that order, the others keep the order they had in
 * `serverOrder`, and the two runs are interleaved by the positions the items had on the server; an item the
 * server did not have goes ahead of the server's items that follow it.
 */
function ordered(merged: unknown[], order: unknown[], serverOrder: unknown[], mergeKey: string | undefined): unknown[] {
  const keysOf = (list: unknown[]) => list.map((item) => identity(item, mergeKey));
  const mergedKeys = keysOf(merged);
  const orderKeys = keysOf(order);
  const serverKeys = keysOf(serverOrder);
  const position = (keys: unknown[], key: unknown) => keys.findIndex((other) => deepEqual(other, key));
  const sortedBy = (indexes: number[], keys: unknown[]) =>
    indexes.sort((a, b) => position(keys, mergedKeys[a]) - position(keys, mergedKeys[b]));
  const named = mergedKeys.flatMap((key, i) => (position(orderKeys, key) >= 0 ? [i] : []));
  const serverOnly = mergedKeys.flatMap((key, i) => (position(orderKeys, key) < 0 ? [i] : []));
  const left = sortedBy(serverOnly, serverKeys);
  const right = sortedBy(named, orderKeys);
  const result: unknown[] = [];
  let l = 0;
  let r = 0;
  while (l < left.length || r < right.length) {
    const leftPosition = l < left.length ? position(serverKeys, mergedKeys[left[l]]) : -1;
    const rightPosition = r < right.length ? position(serverKeys, mergedKeys[right[r]]) : -1;
    const takeLeft = r >= right.length || (l < left.length && leftPosition >= 0 && rightPosition >= 0 && leftPosition < rightPosition);
    result.push(merged[takeLeft ? left[l++] : right[r++]]);
  }
  return result;
}
