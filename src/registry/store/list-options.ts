import { apiErrors } from '../../apimachinery/errors/status-error';
import { KindDefinition } from '../kind-definition';
import { int32Param, int64Param, looseBool, param, Query, resourceVersionParam } from '../../apimachinery/parameters/query';
import { FieldTerm, parseFieldSelector } from '../../apimachinery/selectors/field-selector';
import { LabelRequirement, parseLabelSelector } from '../../apimachinery/selectors/label-selector';

/** The parameters of a list, watch or delete-collection (upstream's `ListOptions`). */
export interface ListOptions {
  labels: LabelRequirement[];
  fields: FieldTerm[];
  includeUninitialized: boolean;
  resourceVersion?: string;
  /** how `resourceVersion` applies: `Exact` or `NotOlderThan` (unset: the legacy rules) */
  resourceVersionMatch?: string;
  timeoutSeconds?: number;
  /** at most this many objects in one response (none when unset or not positive) */
  limit?: number;
  /** the token of the previous page */
  continue?: string;
  allowWatchBookmarks: boolean;
  /** a watch's initial state as ADDED events (unset: as before watch-list) */
  sendInitialEvents?: boolean;
}

/**
 * Reads the LIST parameters. `name` is the object name of a /watch/.../{name} path, which acts as a
 * metadata.name field selector; `alwaysUninitialized` is for delete-collection, which always includes them.
 */
export function readListOptions(def: KindDefinition, query: Query, name?: string, alwaysUninitialized = false): ListOptions {
  const fieldSelector = param(query, 'fieldSelector') ?? '';
  if (name !== undefined && fieldSelector !== '') {
    throw apiErrors.badRequest('both a name and a field selector provided; please provide one or the other.');
  }
  const fields = name !== undefined ? [{ field: 'metadata.name', operator: '=' as const, value: name }] : parseFieldSelector(fieldSelector);
  const known = Object.keys(def.strategy.fieldLabels);
  for (const term of fields) {
    if (!known.includes(term.field)) {
      throw apiErrors.badRequest(`"${term.field}" is not a known field selector: only ${known.map((f) => `"${f}"`).join(', ')}`);
    }
  }
  return {
    labels: parseLabelSelector(param(query, 'labelSelector') ?? ''),
    fields,
    includeUninitialized: alwaysUninitialized || looseBool(param(query, 'includeUninitialized')),
    resourceVersion: resourceVersionParam(query),
    resourceVersionMatch: param(query, 'resourceVersionMatch') || undefined,
    timeoutSeconds: int32Param(query, 'timeoutSeconds'),
    limit: positiveLimit(int64Param(query, 'limit')),
    continue: param(query, 'continue') || undefined,
    allowWatchBookmarks: looseBool(param(query, 'allowWatchBookmarks')),
    sendInitialEvents: query.sendInitialEvents === undefined ? undefined : looseBool(param(query, 'sendInitialEvents')),
  };
}

/** A limit of 0 or less asks for no limit; one beyond any list's length is no limit either. */
function positiveLimit(limit: bigint | undefined): number | undefined {
  if (limit === undefined || limit <= 0n) return undefined;
  return limit > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER - 1 : Number(limit);
}
