import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { apiErrors } from '../../../apimachinery/errors/status-error';
import { KubeObject } from '../../../apimachinery/meta/kube-object';
import { ClusterRole } from '../../../apis/rbac/clusterrole/clusterrole.schema';
import { Binding } from '../../../apis/rbac/policy/binding.schema';
import { RBAC_GROUP } from '../../../apis/rbac/rbac.group';
import { Role } from '../../../apis/rbac/role/role.schema';
import { KindDefinition } from '../../../registry/kind-definition';
import { WriteAdmission, WriteAdmissions } from '../../../registry/store/write-admission';
import { MASTERS_GROUP, UserInfo } from '../../../apimachinery/authentication/user-info';
import type { Authorizer } from '../authorizer';
import { AUTHORIZER } from '../authorizer.token';
import { canonical } from './canonical-json';
import { RbacAuthorizer } from './rbac.authorizer';
import { RbacIndex } from './rbac-index';
import { compact, ruleText, uncovered } from './rule-coverage';

const ROLES = new Set(['roles', 'clusterroles']);
const BINDINGS = new Set(['rolebindings', 'clusterrolebindings']);

/**
 * RBAC's escalation check (upstream's policy-based role and binding storage, pkg/registry/rbac): a user may write a
 * role only with the permissions it grants, unless allowed to `escalate` it, and bind a role only with the
 * permissions the role grants, unless allowed to `bind` it; system:masters may do both. Only changed rules are
 * checked on update, and a ClusterRole's aggregationRule needs `escalate`.
 */
@Injectable()
export class EscalationCheck implements WriteAdmission, OnModuleInit {
  constructor(
    private readonly admissions: WriteAdmissions,
    @Inject(AUTHORIZER) private readonly authorizer: Authorizer,
    private readonly rbac: RbacAuthorizer,
    private readonly index: RbacIndex,
  ) {}

  onModuleInit(): void {
    this.admissions.register(this);
  }

  concerns(def: KindDefinition): boolean {
    return def.group === RBAC_GROUP && (ROLES.has(def.resource) || BINDINGS.has(def.resource));
  }

  admit(def: KindDefinition, object: KubeObject, old: KubeObject | undefined, user: UserInfo): void {
    if (user.groups.includes(MASTERS_GROUP)) return;
    if (ROLES.has(def.resource)) this.admitRole(def, object as ClusterRole, old as ClusterRole | undefined, user);
    else this.admitBinding(def, object as Binding, old as Binding | undefined, user);
  }

  private admitRole(def: KindDefinition, role: Role & ClusterRole, old: (Role & ClusterRole) | undefined, user: UserInfo): void {
    const namespace = role.metadata.namespace ?? '';
    const name = role.metadata.name ?? '';
    const rulesChanged = !old || canonical(role.rules ?? []) !== canonical(old.rules ?? []);
    const aggregationChanged = !!role.aggregationRule && (!old || canonical(role.aggregationRule) !== canonical(old.aggregationRule ?? null));
    if (!rulesChanged && !aggregationChanged) return;
    if (this.allowed(user, 'escalate', def.resource, namespace, name)) return;
    if (aggregationChanged) throw apiErrors.forbidden(def, name, 'must have cluster-admin privileges to use the aggregationRule');
    this.confirmNoEscalation(def, name, namespace, role.rules ?? [], user);
  }

  private admitBinding(def: KindDefinition, binding: Binding, old: Binding | undefined, user: UserInfo): void {
    if (old) return; // the roleRef cannot change, and subjects alone grant nothing the role does not
    const namespace = binding.metadata.namespace ?? '';
    const name = binding.metadata.name ?? '';
    const ref = binding.roleRef ?? {};
    const roleResource = ref.kind === 'Role' ? 'roles' : 'clusterroles';
    if (this.allowed(user, 'bind', roleResource, namespace, ref.name ?? '')) return;
    const bound = this.index.rulesOf({ binding, namespace });
    if (bound.error !== undefined) throw apiErrors.forbidden(def, name, bound.error);
    this.confirmNoEscalation(def, name, namespace, bound.rules, user);
  }

  private allowed(user: UserInfo, verb: string, resource: string, namespace: string, name: string): boolean {
    const attributes = { user, verb, resourceRequest: true, apiGroup: RBAC_GROUP, resource, subresource: '', namespace, name, path: '' };
    return this.authorizer.authorize(attributes).decision === 'allow';
  }

  private confirmNoEscalation(def: KindDefinition, name: string, namespace: string, granted: Parameters<typeof uncovered>[1], user: UserInfo): void {
    const held = this.rbac.rulesFor(user, namespace);
    const missing = uncovered(held.rules, granted);
    if (missing.length === 0) return;
    const groups = `[${user.groups.map((g) => JSON.stringify(g)).join(' ')}]`;
    let message = `user ${JSON.stringify(user.username)} (groups=${groups}) is attempting to grant RBAC permissions not currently held:\n${compact(missing).map(ruleText).join('\n')}`;
    if (held.errors.length > 0) message += `; resolution errors: [${held.errors.join(', ')}]`;
    throw apiErrors.forbidden(def, name, message);
  }
}
