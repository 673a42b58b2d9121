import { Settings } from '../../config/settings';
import { MASTERS_GROUP } from '../../apimachinery/authentication/user-info';
import { ALL_RULES, ALWAYS_ALLOW, ALWAYS_DENY, Authorizer, AuthorizerChain } from './authorizer';
import { RbacAuthorizer } from './rbac/rbac.authorizer';

/** system:masters may do everything whatever the modes, as kube-apiserver puts its privileged group first. */
const PRIVILEGED_GROUP: Authorizer = {
  authorize: ({ user }) => ({ decision: user.groups.includes(MASTERS_GROUP) ? 'allow' : 'no-opinion', reason: '' }),
  rulesFor: (user) => ({ rules: user.groups.includes(MASTERS_GROUP) ? ALL_RULES : [], errors: [] }),
};

/** The modes of --authorization-mode (the settings checked that each is known); one named twice is refused, as kube-apiserver does. */
export function parseModes(value: string): string[] {
  const modes = value.split(',');
  for (const mode of modes) {
    if (modes.indexOf(mode) !== modes.lastIndexOf(mode)) {
      throw new Error(`--authorization-mode: authorization mode ${JSON.stringify(mode)} is named more than once`);
    }
  }
  return modes;
}

/** The secure port's authorizer: the privileged group, then each mode in the order given. */
export function authorizerFor(settings: Settings, rbac: RbacAuthorizer): AuthorizerChain {
  const byMode: Record<string, Authorizer> = { AlwaysAllow: ALWAYS_ALLOW, AlwaysDeny: ALWAYS_DENY, RBAC: rbac };
  return new AuthorizerChain([PRIVILEGED_GROUP, ...parseModes(settings.AUTHORIZATION_MODE).map((mode) => byMode[mode])]);
}
