import { GoPackage } from '../../apimachinery/schema/go-packages';
import { defineKind } from '../../registry/define-kind';
import { KindDefinition } from '../../registry/kind-definition';
import { ApiGroupVersion } from '../../registry/kind-registry';
import { BINDING_COLUMNS } from './binding/binding.columns';
import { bindingStrategy } from './binding/binding.strategy';
import { clusterRoleType } from './clusterrole/clusterrole.schema';
import { clusterRoleStrategy } from './clusterrole/clusterrole.strategy';
import { bindingType, roleRefType, subjectType } from './policy/binding.schema';
import { policyRuleType } from './policy/policy-rule.schema';
import { RBAC_V1, RBAC_V1_TYPES, RBAC_V1BETA1, RBAC_V1BETA1_TYPES } from './rbac.group';
import { ROLE_COLUMNS } from './role/role.columns';
import { roleType } from './role/role.schema';
import { roleStrategy } from './role/role.strategy';

/** The four kinds of one version of rbac.authorization.k8s.io, with that version's types. */
function rbacKinds(gv: ApiGroupVersion, pkg: GoPackage): KindDefinition[] {
  const rule = policyRuleType(pkg);
  const [subject, roleRef] = [subjectType(pkg), roleRefType(pkg)];
  const roleBinding = bindingType(pkg, 'RoleBinding', subject, roleRef);
  const clusterRoleBinding = bindingType(pkg, 'ClusterRoleBinding', subject, roleRef);
  return [
    defineKind(gv, { resource: 'roles', kind: 'Role', namespaced: true, strategy: roleStrategy(roleType(pkg, rule)), columns: ROLE_COLUMNS }),
    defineKind(gv, {
      resource: 'clusterroles',
      kind: 'ClusterRole',
      namespaced: false,
      strategy: clusterRoleStrategy(clusterRoleType(pkg, rule)),
      columns: ROLE_COLUMNS,
    }),
    defineKind(gv, { resource: 'rolebindings', kind: 'RoleBinding', namespaced: true, strategy: bindingStrategy(roleBinding, true), columns: BINDING_COLUMNS }),
    defineKind(gv, {
      resource: 'clusterrolebindings',
      kind: 'ClusterRoleBinding',
      namespaced: false,
      strategy: bindingStrategy(clusterRoleBinding, false),
      columns: BINDING_COLUMNS,
    }),
  ];
}

export const RBAC_V1_KINDS = rbacKinds(RBAC_V1, RBAC_V1_TYPES);
export const RBAC_V1BETA1_KINDS = rbacKinds(RBAC_V1BETA1, RBAC_V1BETA1_TYPES);
