import { GoPackage } from '../../../apimachinery/schema/go-packages';
import { required, s, StructSchema } from '../../../apimachinery/schema/schema';

/** rbac Subject and RoleRef, the parts of a binding; the same fields in v1 and v1beta1. */
export const subjectType = (pkg: GoPackage): StructSchema =>
  pkg.struct('Subject', {
    kind: [1, s.string, required],
    apiGroup: [2, s.string],
    name: [3, s.string, required],
    namespace: [4, s.string],
  });

export const roleRefType = (pkg: GoPackage): StructSchema =>
  pkg.struct('RoleRef', {
    apiGroup: [1, s.string, required],
    kind: [2, s.string, required],
    name: [3, s.string, required],
  });

export interface Subject {
  kind?: string;
  apiGroup?: string;
  name?: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup?: string;
  kind?: string;
  name?: string;
}

export const SUBJECT_KINDS = { user: 'User', group: 'Group', serviceAccount: 'ServiceAccount' } as const;
