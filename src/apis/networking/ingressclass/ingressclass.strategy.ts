import { nameRules } from '../../../apimachinery/validation/names';
import { defineStrategy } from '../../../registry/kind-definition';
import { INGRESS_CLASS, IngressClass } from './ingressclass.schema';
import { validateIngressClass, validateIngressClassUpdate } from './ingressclass.validation';

/** IngressClass: cluster-scoped; parameters are cluster-scoped unless they say otherwise (networking.k8s.io/v1's default). */
export const INGRESS_CLASS_STRATEGY = defineStrategy({
  nameRule: nameRules.dns1123Subdomain,
  shape: INGRESS_CLASS,
  applyDefaults(ingressClass: IngressClass) {
    const parameters = ingressClass.spec?.parameters;
    if (parameters) parameters.scope ??= 'Cluster';
  },
  validate: validateIngressClass,
  validateUpdate: validateIngressClassUpdate,
});
