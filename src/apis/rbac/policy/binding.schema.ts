import { GoPackage } from '../../../apimachinery/schema/go-packages';
import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { required, s } from '../../../apimachinery/schema/schema';
import { TypeOf } from '../../../apimachinery/schema/type-of';

/** rbac Subject and RoleRef, the parts of a binding, and the binding kinds; the same fields in v1 and v1beta1. */
export const subjectType = (pkg: GoPackage) =>
  pkg.struct('Subject', {
    kind: [1, s.string, required],
    apiGroup: [2, s.string],
    name: [3, s.string, required],
    namespace: [4, s.string],
  });

export const roleRefType = (pkg: GoPackage) =>
  pkg.struct('RoleRef', {
    apiGroup: [1, s.string, required],
    kind: [2, s.string, required],
    name: [3, s.string, required],
  });

/** RoleBinding and ClusterRoleBinding: the same fields, subjects and the role they are given. */
export const bindingType = (
  pkg: GoPackage,
  kind: string,
  subject: ReturnType<typeof subjectType>,
  roleRef: ReturnType<typeof roleRefType>,
) => resourceKind(pkg, kind, { subjects: [2, s.list(subject)], roleRef: [3, roleRef, required] });

export type Subject = TypeOf<ReturnType<typeof subjectType>>;
export type RoleRef = TypeOf<ReturnType<typeof roleRefType>>;
export type Binding = KindObject<ReturnType<typeof bindingType>>;

export const SUBJECT_KINDS = { user: 'User', group: 'Group', serviceAccount: 'ServiceAccount' } as const;
