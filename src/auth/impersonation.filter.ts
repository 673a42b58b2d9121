import { Inject, Injectable } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { AuthorizationAttributes } from './authorization/attributes';
import type { Authorizer } from './authorization/authorizer';
import { AUTHORIZER } from './authorization/authorizer.token';
import { forbidden } from './authorization/forbidden';
import { apiErrors } from '../apimachinery/errors/status-error';
import { RequestFilter } from '../apiserver/request/request-filter';
import { ANONYMOUS_USER, serviceAccountGroups, UNAUTHENTICATED_GROUP, UserInfo, withAuthenticatedGroup } from '../apimachinery/authentication/user-info';

const EXTRA_PREFIX = 'impersonate-extra-';

const SERVICE_ACCOUNT = /^system:serviceaccount:([^:]+):([^:]+)$/;

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

/** The user a request asks to act as, with the groups it names, or undefined when it does not impersonate. */
export function requestedUser(request: FastifyRequest): (UserInfo & { requestedGroups: string[] }) | undefined {
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
  // a service account named without groups is in its fixed ones, as upstream's impersonation puts it
  const serviceAccount = groups.length === 0 ? SERVICE_ACCOUNT.exec(username) : null;
  const actingGroups = serviceAccount ? serviceAccountGroups(serviceAccount[1]) : groups;
  const user: UserInfo = { username, ...(uid ? { uid } : {}), groups: actingGroups, ...(Object.keys(extra).length > 0 ? { extra } : {}) };
  const acting =
    username !== ANONYMOUS_USER ? withAuthenticatedGroup(user) : groups.includes(UNAUTHENTICATED_GROUP) ? user : { ...user, groups: [...groups, UNAUTHENTICATED_GROUP] };
  return { ...acting, requestedGroups: groups };
}

/** What one impersonation header asks to act as, as upstream authorizes it (verb `impersonate`). */
function impersonated(user: UserInfo & { requestedGroups: string[] }, requester: UserInfo): AuthorizationAttributes[] {
  const base = { user: requester, verb: 'impersonate', resourceRequest: true, apiGroup: '', subresource: '', namespace: '', path: '' };
  const serviceAccount = SERVICE_ACCOUNT.exec(user.username);
  const asked: AuthorizationAttributes[] = [
    serviceAccount
      ? { ...base, resource: 'serviceaccounts', namespace: serviceAccount[1], name: serviceAccount[2] }
      : { ...base, resource: 'users', name: user.username },
  ];
  for (const group of user.requestedGroups) asked.push({ ...base, resource: 'groups', name: group });
  if (user.uid) asked.push({ ...base, apiGroup: 'authentication.k8s.io', resource: 'uids', name: user.uid });
  for (const [key, values] of Object.entries(user.extra ?? {})) {
    for (const value of values) asked.push({ ...base, apiGroup: 'authentication.k8s.io', resource: 'userextras', subresource: key, name: value });
  }
  return asked;
}

/**
 * Impersonate-User, -Uid, -Group and -Extra-* (upstream's WithImpersonation): the request then acts as that user,
 * and `request.auth.authenticated` still says who sent it. On the secure port the sender must be allowed to
 * `impersonate` the user (or service account), each group, the uid and each extra value; the insecure port's
 * superuser may impersonate anyone.
 */
@Injectable()
export class ImpersonationFilter implements RequestFilter {
  constructor(@Inject(AUTHORIZER) private readonly authorizer: Authorizer) {}

  async filter(request: FastifyRequest): Promise<void> {
    const auth = request.auth;
    const requested = requestedUser(request);
    if (!auth || !requested) return;
    if (auth.secure) {
      for (const attributes of impersonated(requested, auth.authenticated)) {
        const { decision, reason } = this.authorizer.authorize(attributes);
        if (decision !== 'allow') throw forbidden(attributes, reason);
      }
    }
    const { requestedGroups: _groups, ...user } = requested;
    request.auth = { ...auth, user };
  }
}
