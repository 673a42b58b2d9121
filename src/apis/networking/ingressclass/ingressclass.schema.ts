import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { described, pointer, required, s } from '../../../apimachinery/schema/schema';
import { NETWORKING_V1_TYPES } from '../networking.group';

const INGRESS_CLASS_PARAMETERS_REFERENCE = NETWORKING_V1_TYPES.struct('IngressClassParametersReference', {
  apiGroup: [1, s.string, pointer, described('Group of the resource holding the parameters; the core group when empty.')],
  kind: [2, s.string, required, described('Kind of the resource holding the parameters.')],
  name: [3, s.string, required, described('Name of the resource holding the parameters.')],
  scope: [4, s.string, pointer, described('Whether the resource is cluster-scoped (Cluster, the default) or namespaced (Namespace).')],
  namespace: [5, s.string, pointer, described('Namespace of the resource, required with scope Namespace.')],
});

const INGRESS_CLASS_SPEC = NETWORKING_V1_TYPES.struct('IngressClassSpec', {
  controller: [1, s.string, described('Name of the controller implementing the class, a domain-prefixed path such as example.com/ingress-controller.')],
  parameters: [2, INGRESS_CLASS_PARAMETERS_REFERENCE, pointer, described('A resource holding further configuration of the controller.')],
});

/** networking.k8s.io/v1 IngressClass: which controller implements the Ingresses that name the class. */
export const INGRESS_CLASS = resourceKind(NETWORKING_V1_TYPES, 'IngressClass', {
  spec: [2, INGRESS_CLASS_SPEC, described('The controller of the class and its parameters.')],
});

export type IngressClass = KindObject<typeof INGRESS_CLASS>;
