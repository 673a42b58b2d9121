import { KindStrategy } from '../../../registry/kind-definition';
import { StoredIngress } from '../../extensions/ingress/ingress.schema';
import { INGRESS_STRATEGY } from '../../extensions/ingress/ingress.strategy';
import { ingressFromStored } from './ingress.v1.conversion';
import { INGRESS_V1 } from './ingress.v1.schema';
import { validateIngressV1 } from './ingress.v1.validation';

/** The object a networking.k8s.io/v1 write sent, as it sent it: a path without pathType stays without one. */
const asSent = (ingress: StoredIngress) => ingressFromStored(ingress);

/** networking.k8s.io/v1 Ingress: extensions' strategy over the same stored form, with v1's validation. */
export const INGRESS_V1_STRATEGY: KindStrategy = {
  ...INGRESS_STRATEGY,
  shape: INGRESS_V1,
  validate: (ingress: StoredIngress) => validateIngressV1(asSent(ingress), true),
  validateUpdate: (ingress: StoredIngress) => validateIngressV1(asSent(ingress), false),
};
