import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { described, pointer, s } from '../../../apimachinery/schema/schema';
import { TypeOf } from '../../../apimachinery/schema/type-of';
import {
  INGRESS_CLASS_NAME_FIELD,
  ingressLoadBalancerStatus,
  ingressPortStatus,
  ingressTypes,
  PATH_MEANING,
  PATH_TYPE_FIELD,
  TYPED_LOCAL_OBJECT_REFERENCE,
} from '../../extensions/ingress/ingress.schema';
import { NETWORKING_V1_TYPES } from '../networking.group';

const SERVICE_BACKEND_PORT = NETWORKING_V1_TYPES.struct('ServiceBackendPort', {
  name: [1, s.string, described('Name of the port of the service; not with number.')],
  number: [2, s.int32, described('Number of the port of the service; not with name.')],
});

const INGRESS_SERVICE_BACKEND = NETWORKING_V1_TYPES.struct('IngressServiceBackend', {
  name: [1, s.string, described('Name of the service requests go to.')],
  port: [2, SERVICE_BACKEND_PORT, described('Port of that service.')],
});

const INGRESS_BACKEND = NETWORKING_V1_TYPES.struct('IngressBackend', {
  service: [4, INGRESS_SERVICE_BACKEND, pointer, described('The service requests go to; not with resource.')],
  resource: [3, TYPED_LOCAL_OBJECT_REFERENCE, pointer, described('An object of the ingress namespace that requests go to; not with service.')],
});

const INGRESS_V1_TYPES = ingressTypes(NETWORKING_V1_TYPES, {
  backend: INGRESS_BACKEND,
  defaultBackend: { defaultBackend: [1, INGRESS_BACKEND, pointer, described('Where requests that match no rule go.')] },
  pathMeaning: PATH_MEANING,
  pathType: PATH_TYPE_FIELD,
  ingressClassName: INGRESS_CLASS_NAME_FIELD,
  loadBalancer: ingressLoadBalancerStatus(NETWORKING_V1_TYPES, 'IngressLoadBalancer', {
    ports: [4, s.list(ingressPortStatus(NETWORKING_V1_TYPES)), described('Ports of the entry point.')],
  }),
});

/** networking.k8s.io/v1 Ingress: stored as extensions/v1beta1 (see ingress.v1.conversion.ts). */
export const INGRESS_V1 = resourceKind(NETWORKING_V1_TYPES, 'Ingress', {
  spec: [2, INGRESS_V1_TYPES.spec, described('Desired routing of the ingress.')],
  status: [3, INGRESS_V1_TYPES.status, described('Observed state of the ingress.')],
});

export type IngressV1 = KindObject<typeof INGRESS_V1>;
export type IngressV1Backend = TypeOf<typeof INGRESS_BACKEND>;
