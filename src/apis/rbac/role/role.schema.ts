import { resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { GoPackage } from '../../../apimachinery/schema/go-packages';
import { alwaysWritten, s, StructSchema } from '../../../apimachinery/schema/schema';

/** Role: rules that apply in the role's namespace. */
export const roleType = (pkg: GoPackage, policyRule: StructSchema): StructSchema =>
  resourceKind(pkg, 'Role', { rules: [2, s.list(policyRule), alwaysWritten] });
