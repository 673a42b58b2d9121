import { defineStrategy } from '../../../registry/kind-definition';
import { nameRules } from '../../../apimachinery/validation/names';
import { INGRESS } from './ingress.schema';
import { validateIngress, validateIngressStatus } from './ingress.validation';

/** Ingress: no defaults; its status holds the load balancer. */
export const INGRESS_STRATEGY = defineStrategy({
  nameRule: nameRules.dns1123Subdomain,
  shape: INGRESS,
  status: { empty: { loadBalancer: {} }, keepsLabels: false, validate: validateIngressStatus },
  generation: 'spec',
  validate: validateIngress,
  validateUpdate: validateIngress,
});
