import { PolicyRule } from '../../apis/rbac/policy/policy-rule.schema';
import { UserInfo } from '../../apimachinery/authentication/user-info';
import { AuthorizationAttributes } from './attributes';

/** An authorizer's answer: allow or deny ends the question; no opinion passes it to the next authorizer. */
export type DecisionKind = 'allow' | 'deny' | 'no-opinion';

export interface Decision {
  decision: DecisionKind;
  /** why, for the refusal's message (upstream appends it after a colon) */
  reason: string;
}

/** The rules a user has in a namespace ('': the cluster's alone), and what kept an authorizer from knowing all of them. */
export interface UserRules {
  rules: PolicyRule[];
  errors: string[];
}

export interface Authorizer {
  authorize(attributes: AuthorizationAttributes): Decision;
  /** what a SelfSubjectRulesReview lists (upstream's RuleResolver) */
  rulesFor(user: UserInfo, namespace: string): UserRules;
}

/** Every verb on every resource and path. */
export const ALL_RULES: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

export const ALWAYS_ALLOW: Authorizer = {
  authorize: () => ({ decision: 'allow', reason: '' }),
  rulesFor: () => ({ rules: ALL_RULES, errors: [] }),
};

export const ALWAYS_DENY: Authorizer = {
  authorize: () => ({ decision: 'deny', reason: 'Everything is forbidden.' }),
  rulesFor: () => ({ rules: [], errors: [] }),
};

/** Authorizers tried in order until one allows or denies (upstream's union authorizer); their reasons are joined. */
export class AuthorizerChain implements Authorizer {
  constructor(private readonly authorizers: readonly Authorizer[]) {}

  authorize(attributes: AuthorizationAttributes): Decision {
    const reasons: string[] = [];
    for (const authorizer of this.authorizers) {
      const answer = authorizer.authorize(attributes);
      if (answer.reason) reasons.push(answer.reason);
      if (answer.decision !== 'no-opinion') return { decision: answer.decision, reason: reasons.join('\n') };
    }
    return { decision: 'no-opinion', reason: reasons.join('\n') };
  }

  rulesFor(user: UserInfo, namespace: string): UserRules {
    const all: UserRules = { rules: [], errors: [] };
    for (const authorizer of this.authorizers) {
      const { rules, errors } = authorizer.rulesFor(user, namespace);
      all.rules.push(...rules);
      all.errors.push(...errors);
    }
    return all;
  }
}
