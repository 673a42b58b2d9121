import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { GoPackage } from '../../../apimachinery/schema/go-packages';
import { alwaysWritten, described, s } from '../../../apimachinery/schema/schema';
import { PolicyRuleSchema } from '../policy/policy-rule.schema';

/** Role: rules that apply in the role's namespace. */
export const roleType = (pkg: GoPackage, policyRule: PolicyRuleSchema) =>
  resourceKind(pkg, 'Role', { rules: [2, s.list(policyRule), alwaysWritten, described('Permissions the role grants in its namespace.')] });

export type Role = KindObject<ReturnType<typeof roleType>>;
