import { apiErrors } from '../../apimachinery/errors/status-error';

/** What a path under /api or /apis addresses (the apiserver's RequestInfo). */
export interface ResourcePath {
  group: string;
  version: string;
  /** set for paths under /namespaces/{namespace}/ */
  namespace?: string;
  resource: string;
  name?: string;
  subresource?: string;
  /** the deprecated /watch/ form */
  watchPath: boolean;
  /** the request path, decoded, without the query: a list's selfLink */
  path: string;
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/**
 * The namespace a request is in, as the apiserver's RequestInfo has it: the path's, or for a core Namespace's own
 * paths the namespace itself (so that a Role in a namespace can grant access to it).
 */
export function requestNamespace(path: ResourcePath): string {
  if (path.namespace !== undefined) return path.namespace;
  return path.group === '' && path.resource === 'namespaces' ? (path.name ?? '') : '';
}

export type ParsedPath =
  | { type: 'resource'; resource: ResourcePath }
  | { type: 'groupList' | 'legacyVersions' }
  | { type: 'group'; group: string }
  | { type: 'groupVersion'; group: string; version: string }
  | { type: 'unknown' };

/** Decodes the path once (so %2F becomes a separator, as in the apiserver) and drops empty segments. */
export function splitPath(rawPath: string): string[] {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    throw apiErrors.badRequest(`invalid path escape sequence in ${JSON.stringify(rawPath)}`);
  }
  return decoded.split('/').filter((s) => s.length > 0);
}

export function parsePath(rawPath: string): ParsedPath {
  const segments = splitPath(rawPath);
  const path = `/${segments.join('/')}`;
  const [prefix, ...rest] = segments;
  let group: string;
  let version: string | undefined;
  let tail: string[];
  if (prefix === 'apis') {
    if (rest.length === 0) return { type: 'groupList' };
    if (rest.length === 1) return { type: 'group', group: rest[0] };
    [group, version, ...tail] = rest;
  } else if (prefix === 'api') {
    if (rest.length === 0) return { type: 'legacyVersions' };
    group = '';
    [version, ...tail] = rest;
  } else {
    return { type: 'unknown' };
  }
  if (tail.length === 0) return { type: 'groupVersion', group, version };

  const watchPath = tail[0] === 'watch';
  if (watchPath) tail = tail.slice(1);
  let namespace: string | undefined;
  // `namespaces/{name}/status` and `/finalize` are a namespace's subresources, not resources in the namespace
  if (tail[0] === 'namespaces' && tail.length >= 3 && !(group === '' && tail.length === 3 && NAMESPACE_SUBRESOURCES.has(tail[2]))) {
    namespace = tail[1];
    tail = tail.slice(2);
  }
  const [resource, name, subresource, ...extra] = tail;
  if (!resource || extra.length > 0 || (watchPath && subresource !== undefined)) return { type: 'unknown' };
  return { type: 'resource', resource: { group, version, namespace, resource, name, subresource, watchPath, path } };
}
