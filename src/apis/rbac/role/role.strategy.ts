import { StructSchema } from '../../../apimachinery/schema/schema';
import { defineStrategy, KindStrategy } from '../../../registry/kind-definition';
import { validateRules } from '../policy/policy-rule.validation';
import { RBAC_NAME } from '../policy/rbac-name';
import { Role } from './role.schema';

/** A Role's rules are resource rules only: non-resource URLs are not namespaced. */
export const roleStrategy = (shape: StructSchema): KindStrategy =>
  defineStrategy({
    nameRule: RBAC_NAME,
    shape,
    generation: 'client',
    validate: (role: Role) => validateRules(role.rules, true),
    validateUpdate: (role: Role) => validateRules(role.rules, true),
  });
