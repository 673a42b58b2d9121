import { KindRegistry } from '../../registry/kind-registry';
import { Verb } from '../../registry/kind-definition';
import { Query } from '../../apimachinery/parameters/query';
import { parsePath, requestNamespace } from './resource-path';
import { resolveVerb } from './verb';

/** The apiserver's verbs as its metrics name them. */
const METRIC_VERBS: Record<Verb, string> = {
  get: 'GET',
  list: 'LIST',
  watch: 'WATCH',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  deletecollection: 'DELETECOLLECTION',
};

/**
 * What a request is about, for its metrics, its log line, audit and authorization (the apiserver's RequestInfo).
 * Resource fields are empty for other paths. A path of a resource this server does not serve is still a resource
 * request, as upstream sees it (RBAC refuses `pods` as a resource), but is not `served`, and its metrics name no
 * resource, so that clients cannot invent label values.
 */
export interface RequestInfo {
  /** GET, LIST, WATCH, POST, PUT, PATCH, DELETE, DELETECOLLECTION; the HTTP method elsewhere */
  verb: string;
  /** the verb as authorization and audit name it: get, list, watch, create, ...; the method in lower case elsewhere */
  apiVerb: string;
  /** the path, without the query */
  path: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** `resource` (one object), `namespace`, `cluster`; empty outside resources */
  scope: '' | 'resource' | 'namespace' | 'cluster';
  /** a request under /api or /apis */
  api: boolean;
  /** a request of a resource this server serves (metrics name only those) */
  served: boolean;
  /** changes state (POST, PUT, PATCH, DELETE) */
  mutating: boolean;
  /** a watch: held open, outside the in-flight limits */
  longRunning: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** set by the handler chain's first filter (RequestInfoFilter, upstream's WithRequestInfo) */
    requestInfo?: RequestInfo;
  }
}

export function requestInfo(method: string, url: string, query: Query, kinds: KindRegistry): RequestInfo {
  const urlPath = url.split('?')[0];
  const info: RequestInfo = {
    verb: method,
    apiVerb: method.toLowerCase(),
    path: urlPath,
    group: '',
    version: '',
    resource: '',
    subresource: '',
    namespace: '',
    name: '',
    scope: '',
    api: /^\/apis?(\/|\?|$)/.test(url),
    served: false,
    mutating: !['GET', 'HEAD', 'OPTIONS'].includes(method),
    longRunning: false,
  };
  let parsed: ReturnType<typeof parsePath>;
  try {
    parsed = parsePath(urlPath);
  } catch {
    return info;
  }
  if (parsed.type !== 'resource') return info;
  const path = parsed.resource;
  const served = kinds.serves(path.group, path.version, path.resource);
  const verb = resolveVerb(method, path, query);
  return {
    ...info,
    served,
    verb: verb && served ? METRIC_VERBS[verb] : method,
    apiVerb: verb ?? info.apiVerb,
    group: path.group,
    version: path.version,
    resource: path.resource,
    subresource: path.subresource ?? '',
    namespace: requestNamespace(path),
    name: path.name ?? '',
    scope: path.name !== undefined ? 'resource' : path.namespace !== undefined ? 'namespace' : 'cluster',
    longRunning: served && verb === 'watch',
  };
}
