import { groupVersion, KindDefinition } from '../registry/kind-definition';
import { WatchEvent } from './watch-events';

/** How often a watch that allows bookmarks gets one, as the apiserver's watch cache sends them. */
export const BOOKMARK_INTERVAL_MS = 60_000;
/** A bookmark is sent this long before the watch's timeout closes it, so the client re-watches from a fresh version. */
const BEFORE_TIMEOUT_MS = 2_000;

/** The annotation of the bookmark that ends a watch-list's initial events. */
export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/** A BOOKMARK: an object of the watched kind carrying only the resourceVersion the client has seen everything up to. */
export function bookmarkEvent(def: KindDefinition, resourceVersion: bigint, initialEventsEnd = false): WatchEvent {
  const metadata: Record<string, unknown> = { resourceVersion: resourceVersion.toString() };
  if (initialEventsEnd) metadata.annotations = { [INITIAL_EVENTS_END]: 'true' };
  return { type: 'BOOKMARK', object: { kind: def.kind, apiVersion: groupVersion(def), metadata } };
}

/**
 * When the next bookmark is due after one due at `previous` (or after the start): a minute later, or just before the
 * deadline if that comes first; none once that one is past.
 */
export function nextBookmarkAt(previous: number, deadline: number): number | undefined {
  const next = Math.min(previous + BOOKMARK_INTERVAL_MS, deadline - BEFORE_TIMEOUT_MS);
  return next <= previous ? undefined : next;
}
