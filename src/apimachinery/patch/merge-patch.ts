import { isPlainObject } from '../meta/kube-object';
import { ownMember, setMember, copyJson } from '../meta/json-value';

/**
 * Applies an RFC 7386 JSON merge patch: objects are merged member by member, `null` removes a member, and any other
 * value (arrays included) replaces the target whole. Returns a new value; the target is not changed.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  return mergeInto(copyJson(target), patch);
}

function mergeInto(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return copyJson(patch);
  const result = isPlainObject(target) ? target : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else setMember(result, name, mergeInto(ownMember(result, name), value));
  }
  return result;
}
