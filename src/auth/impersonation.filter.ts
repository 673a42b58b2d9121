import { FastifyRequest } from 'fastify';
import { apiErrors } from '../apimachinery/errors/status-error';
import { ANONYMOUS_USER, UNAUTHENTICATED_GROUP, UserInfo, withAuthenticatedGroup } from './user-info';

const EXTRA_PREFIX = 'impersonate-extra-';

/** The impersonation headers of a request, each with every value it was sent with. */
function impersonationHeaders(request: FastifyRequest): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  const raw = request.raw.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (!name.startsWith('impersonate-')) continue;
    headers.set(name, [...(headers.get(name) ?? []), raw[i + 1]]);
  }
  return headers;
}

/** The user a request asks to act as, or undefined when it does not impersonate. */
export function requestedUser(request: FastifyRequest): UserInfo | undefined {
  const headers = impersonationHeaders(request);
  if (headers.size === 0) return undefined;
  const username = headers.get('impersonate-user')?.[0];
  if (!username) throw apiErrors.badRequest(`requested ${[...headers.keys()].join(', ')} without impersonating a user`);
  const extra: Record<string, string[]> = {};
  for (const [name, values] of headers) {
    if (name.startsWith(EXTRA_PREFIX)) extra[decodeURIComponent(name.slice(EXTRA_PREFIX.length))] = values;
  }
  const uid = headers.get('impersonate-uid')?.[0];
  const groups = headers.get('impersonate-group') ?? [];
  const user: UserInfo = { username, ...(uid ? { uid } : {}), groups, ...(Object.keys(extra).length > 0 ? { extra } : {}) };
  if (username === ANONYMOUS_USER) return groups.includes(UNAUTHENTICATED_GROUP) ? user : { ...user, groups: [...groups, UNAUTHENTICATED_GROUP] };
  return withAuthenticatedGroup(user);
}

/**
 * Impersonate-User, -Uid, -Group and -Extra-* (upstream's WithImpersonation): the request then acts as that user,
 * and `request.auth.authenticated` still says who sent it. Checking the `impersonate` verb is authorization's job;
 * until there is authorization, only the insecure port (whose user may do anything) may impersonate, and the
 * secure port refuses as upstream words a refused impersonation.
 */
export class ImpersonationFilter {
  async filter(request: FastifyRequest): Promise<void> {
    const auth = request.auth;
    const user = requestedUser(request);
    if (!auth || !user) return;
    if (auth.secure) {
      throw apiErrors.forbidden(
        { group: '', resource: 'users' },
        user.username,
        `User "${auth.authenticated.username}" cannot impersonate resource "users" in API group "" at the cluster scope`,
      );
    }
    request.auth = { ...auth, user };
  }
}
