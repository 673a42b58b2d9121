import { StructSchema } from '../../../apimachinery/schema/schema';
import { defineStrategy, KindStrategy } from '../../../registry/kind-definition';
import { Binding } from '../policy/binding.schema';
import { defaultBinding, validateBinding, validateBindingUpdate } from '../policy/binding.validation';
import { RBAC_NAME } from '../policy/rbac-name';

/**
 * A RoleBinding (`namespaced`: a Role or ClusterRole given in its namespace) or a ClusterRoleBinding (a ClusterRole
 * given everywhere); the roleRef is fixed once created.
 */
export const bindingStrategy = (shape: StructSchema, namespaced: boolean): KindStrategy =>
  defineStrategy({
    nameRule: RBAC_NAME,
    shape,
    generation: 'client',
    applyDefaults: (binding: Binding) => defaultBinding(binding),
    validate: (binding: Binding) => validateBinding(binding, namespaced),
    validateUpdate: (binding: Binding, old: Binding) => [...validateBinding(binding, namespaced), ...validateBindingUpdate(binding, old)],
  });
