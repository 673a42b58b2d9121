/** Who a request is from, as the apiserver's authenticators describe a user. */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export const ANONYMOUS_USER = 'system:anonymous';
export const UNAUTHENTICATED_GROUP = 'system:unauthenticated';
export const AUTHENTICATED_GROUP = 'system:authenticated';
export const MASTERS_GROUP = 'system:masters';
/** every service account's group; each is also in `system:serviceaccounts:<namespace>` */
export const SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';

/** The groups a service account of `namespace` is in (besides system:authenticated). */
export const serviceAccountGroups = (namespace: string): string[] => [SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNTS_GROUP}:${namespace}`];

/** The user of every request on the insecure port, as 1.7 names it: a superuser. */
export const INSECURE_USER: UserInfo = { username: 'system:unsecured', groups: [MASTERS_GROUP, AUTHENTICATED_GROUP] };

export const ANONYMOUS: UserInfo = { username: ANONYMOUS_USER, groups: [UNAUTHENTICATED_GROUP] };

/** Authenticated users are in system:authenticated (upstream's AuthenticatedGroupAdder); anonymous is not. */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.username === ANONYMOUS_USER || user.groups.includes(AUTHENTICATED_GROUP)) return user;
  return { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] };
}

export const isAnonymous = (user: UserInfo) => user.groups.includes(UNAUTHENTICATED_GROUP);
