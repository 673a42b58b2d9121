import { FastifyRequest } from 'fastify';
import { apiErrors } from '../apimachinery/errors/status-error';
import { RequestInfo } from '../apiserver/request/request-info';
import { isAnonymous } from './user-info';

/** The paths anyone may read (upstream's system:public-info-viewer role). */
const PUBLIC_PATHS = /^\/(healthz|livez|readyz|version)(\/|$)/;

/** `User "x" cannot list resource "deployments" in API group "extensions" in the namespace "default"` */
export function refusal(username: string, info: RequestInfo) {
  if (!info.resource) return apiErrors.forbiddenPath(`User "${username}" cannot ${info.apiVerb} path "${info.path}"`);
  const resource = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
  const scope = info.namespace ? `in the namespace "${info.namespace}"` : 'at the cluster scope';
  return apiErrors.forbidden(
    { group: info.group, resource: info.resource },
    info.name,
    `User "${username}" cannot ${info.apiVerb} resource "${resource}" in API group "${info.group}" ${scope}`,
  );
}

/**
 * Authorization until RBAC exists: every authenticated user may do everything (AlwaysAllow); anonymous requests may
 * only read the health endpoints and /version.
 */
export class AuthorizationFilter {
  async filter(request: FastifyRequest): Promise<void> {
    const { auth, requestInfo } = request;
    if (!auth || !requestInfo) throw apiErrors.unauthorized();
    if (!isAnonymous(auth.user)) return;
    if (requestInfo.apiVerb === 'get' && PUBLIC_PATHS.test(requestInfo.path)) return;
    throw refusal(auth.user.username, requestInfo);
  }
}
