import { Injectable } from '@nestjs/common';
import { UserInfo } from '../../../apimachinery/authentication/user-info';
import { AuthorizationAttributes } from '../attributes';
import { Authorizer, Decision, UserRules } from '../authorizer';
import { RbacIndex } from './rbac-index';
import { ruleAllows } from './rule-matching';

/** Upstream's aggregate of errors: one as it is, several in brackets. */
const aggregate = (errors: readonly string[]) => (errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);

/**
 * RBAC (upstream's plugin/pkg/auth/authorizer/rbac): a request is allowed when a rule of a role bound to the user,
 * in the cluster or in the request's namespace, allows it; otherwise RBAC has no opinion, and says which roles it
 * could not find.
 */
@Injectable()
export class RbacAuthorizer implements Authorizer {
  constructor(private readonly index: RbacIndex) {}

  authorize(attributes: AuthorizationAttributes): Decision {
    const errors: string[] = [];
    for (const applied of this.index.bindingsOf(attributes.user, attributes.namespace)) {
      const bound = this.index.rulesOf(applied);
      if (bound.error !== undefined) errors.push(bound.error);
      else if (bound.rules.some((rule) => ruleAllows(rule, attributes))) return { decision: 'allow', reason: '' };
    }
    return { decision: 'no-opinion', reason: errors.length > 0 ? `RBAC: ${aggregate(errors)}` : '' };
  }

  rulesFor(user: UserInfo, namespace: string): UserRules {
    const result: UserRules = { rules: [], errors: [] };
    for (const applied of this.index.bindingsOf(user, namespace)) {
      const bound = this.index.rulesOf(applied);
      if (bound.error !== undefined) result.errors.push(bound.error);
      else result.rules.push(...bound.rules);
    }
    return result;
  }
}
