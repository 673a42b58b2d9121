import { GoPackage } from '../../../apimachinery/schema/go-packages';
import { described, required, s } from '../../../apimachinery/schema/schema';
import { TypeOf } from '../../../apimachinery/schema/type-of';

/** rbac PolicyRule: what a role allows; the same fields in v1 and v1beta1. */
export const policyRuleType = (pkg: GoPackage) =>
  pkg.struct('PolicyRule', {
    verbs: [1, s.stringList, required, described('Verbs the rule allows; * allows every verb.')],
    apiGroups: [2, s.stringList, described('API groups of the resources; the empty string is the core group.')],
    resources: [3, s.stringList, described('Resources the rule covers; * covers every resource.')],
    resourceNames: [4, s.stringList, described('Names of the objects the rule is limited to; all when empty.')],
    nonResourceURLs: [5, s.stringList, described('URL paths other than resources the rule allows (cluster roles only).')],
  });

export type PolicyRuleSchema = ReturnType<typeof policyRuleType>;

/** A rule as the authorizer and the validation read it. */
export type PolicyRule = TypeOf<PolicyRuleSchema>;
