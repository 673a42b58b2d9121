import { GoPackage } from '../../../apimachinery/schema/go-packages';
import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { described, required, s } from '../../../apimachinery/schema/schema';
import { TypeOf } from '../../../apimachinery/schema/type-of';

/** rbac Subject and RoleRef, the parts of a binding, and the binding kinds; the same fields in v1 and v1beta1. */
export const subjectType = (pkg: GoPackage) =>
  pkg.struct('Subject', {
    kind: [1, s.string, required, described('Kind of subject: User, Group or ServiceAccount.')],
    apiGroup: [2, s.string, described('API group of the kind of subject; empty for service accounts.')],
    name: [3, s.string, required, described('Name of the subject.')],
    namespace: [4, s.string, described('Namespace of a service account.')],
  });

export const roleRefType = (pkg: GoPackage) =>
  pkg.struct('RoleRef', {
    apiGroup: [1, s.string, required, described('API group of the role.')],
    kind: [2, s.string, required, described('Kind of the role: Role or ClusterRole.')],
    name: [3, s.string, required, described('Name of the role.')],
  });

/** RoleBinding and ClusterRoleBinding: the same fields, subjects and the role they are given. */
export const bindingType = (
  pkg: GoPackage,
  kind: string,
  subject: ReturnType<typeof subjectType>,
  roleRef: ReturnType<typeof roleRefType>,
) =>
  resourceKind(pkg, kind, {
    subjects: [2, s.list(subject), described('Users, groups and service accounts the role is given to.')],
    roleRef: [3, roleRef, required, described('Role given to the subjects; it cannot be changed.')],
  });

export type Subject = TypeOf<ReturnType<typeof subjectType>>;
export type RoleRef = TypeOf<ReturnType<typeof roleRefType>>;
export type Binding = KindObject<ReturnType<typeof bindingType>>;

export const SUBJECT_KINDS = { user: 'User', group: 'Group', serviceAccount: 'ServiceAccount' } as const;
