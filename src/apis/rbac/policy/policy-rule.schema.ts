import { GoPackage } from '../../../apimachinery/schema/go-packages';
import { required, s, StructSchema } from '../../../apimachinery/schema/schema';

/** rbac PolicyRule: what a role allows; the same fields in v1 and v1beta1. */
export const policyRuleType = (pkg: GoPackage): StructSchema =>
  pkg.struct('PolicyRule', {
    verbs: [1, s.stringList, required],
    apiGroups: [2, s.stringList],
    resources: [3, s.stringList],
    resourceNames: [4, s.stringList],
    nonResourceURLs: [5, s.stringList],
  });

/** A rule as the authorizer and the validation read it. */
export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}
