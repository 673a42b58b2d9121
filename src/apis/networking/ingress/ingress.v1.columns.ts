import { ingressColumns } from '../../extensions/ingress/ingress.columns';
import { IngressV1 } from './ingress.v1.schema';

/** networking.k8s.io/v1 names the class in spec.ingressClassName. */
export const INGRESS_V1_COLUMNS = ingressColumns((i) => (i as IngressV1).spec?.ingressClassName, [['spec', 'ingressClassName']]);
