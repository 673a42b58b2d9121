import { GoPackage } from '../../../apimachinery/schema/go-packages';
import { required, s } from '../../../apimachinery/schema/schema';
import { TypeOf } from '../../../apimachinery/schema/type-of';

/** rbac PolicyRule: what a role allows; the same fields in v1 and v1beta1. */
export const policyRuleType = (pkg: GoPackage) =>
  pkg.struct('PolicyRule', {
    verbs: [1, s.stringList, required],
    apiGroups: [2, s.stringList],
    resources: [3, s.stringList],
    resourceNames: [4, s.stringList],
    nonResourceURLs: [5, s.stringList],
  });

export type PolicyRuleSchema = ReturnType<typeof policyRuleType>;

/** A rule as the authorizer and the validation read it. */
export type PolicyRule = TypeOf<PolicyRuleSchema>;
