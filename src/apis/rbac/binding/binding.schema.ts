import { resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { GoPackage } from '../../../apimachinery/schema/go-packages';
import { required, s, StructSchema } from '../../../apimachinery/schema/schema';

/** RoleBinding and ClusterRoleBinding: the same fields, subjects and the role they are given. */
export const bindingType = (pkg: GoPackage, kind: string, subject: StructSchema, roleRef: StructSchema): StructSchema =>
  resourceKind(pkg, kind, { subjects: [2, s.list(subject)], roleRef: [3, roleRef, required] });
