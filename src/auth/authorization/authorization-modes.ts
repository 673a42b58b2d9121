import { Settings } from '../../config/settings';
import { MASTERS_GROUP } from '../user-info';
import { ALL_RULES, ALWAYS_ALLOW, ALWAYS_DENY, Authorizer, AuthorizerChain } from './authorizer';
import { RbacAuthorizer } from './rbac/rbac.authorizer';

export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'RBAC'] as const;

/** system:masters may do everything whatever the modes, as kube-apiserver puts its privileged group first. */
const PRIVILEGED_GROUP: Authorizer = {
  authorize: ({ user }) => ({ decision: user.groups.includes(MASTERS_GROUP) ? 'allow' : 'no-opinion', reason: '' }),
  rulesFor: (user) => ({ rules: user.groups.includes(MASTERS_GROUP) ? ALL_RULES : [], errors: [] }),
};

/** The modes of --authorization-mode, checked as kube-apiserver checks them. */
export function parseModes(value: string): string[] {
  const modes = value.split(',').map((mode) => mode.trim());
  for (const mode of modes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(mode)) {
      throw new Error(`--authorization-mode: authorization mode ${JSON.stringify(mode)} is not supported; the modes are ${AUTHORIZATION_MODES.join(', ')}`);
    }
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
