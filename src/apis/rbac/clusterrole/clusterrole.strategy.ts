import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { StructSchema } from '../../../apimachinery/schema/schema';
import { validateLabelSelector } from '../../../apimachinery/selectors/label-selector-object';
import { defineStrategy, KindStrategy } from '../../../registry/kind-definition';
import { validateRules } from '../policy/policy-rule.validation';
import { RBAC_NAME } from '../policy/rbac-name';
import { ClusterRole } from './clusterrole.schema';

function validateClusterRole(role: ClusterRole): FieldError[] {
  const errors = validateRules(role.rules, false);
  const aggregation = role.aggregationRule;
  if (!aggregation) return errors;
  const selectors = aggregation.clusterRoleSelectors ?? [];
  if (selectors.length === 0) {
    errors.push(fieldErrors.required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  }
  selectors.forEach((selector, i) => errors.push(...validateLabelSelector(selector, `aggregationRule.clusterRoleSelectors[${i}]`)));
  return errors;
}

/** A ClusterRole: rules (non-resource URLs allowed) and an optional aggregation rule. */
export const clusterRoleStrategy = (shape: StructSchema): KindStrategy =>
  defineStrategy({
    nameRule: RBAC_NAME,
    shape,
    generation: 'client',
    validate: validateClusterRole,
    validateUpdate: validateClusterRole,
  });
