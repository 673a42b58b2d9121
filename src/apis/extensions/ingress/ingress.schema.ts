import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { CORE_V1 } from '../../workloads/pod-template/core-v1';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';
import { inline, required, s } from '../../../apimachinery/schema/schema';
import { TypeOf } from '../../../apimachinery/schema/type-of';

const LOAD_BALANCER_INGRESS = CORE_V1.struct('LoadBalancerIngress', {
  ip: [1, s.string],
  hostname: [2, s.string],
});

const LOAD_BALANCER_STATUS = CORE_V1.struct('LoadBalancerStatus', {
  ingress: [1, s.list(LOAD_BALANCER_INGRESS)],
});

const INGRESS_BACKEND = EXTENSIONS_V1BETA1.struct('IngressBackend', {
  serviceName: [1, s.string, required],
  servicePort: [2, s.intOrString, required],
});

const INGRESS_TLS = EXTENSIONS_V1BETA1.struct('IngressTLS', {
  hosts: [1, s.stringList],
  secretName: [2, s.string],
});

const HTTP_INGRESS_PATH = EXTENSIONS_V1BETA1.struct('HTTPIngressPath', {
  path: [1, s.string],
  backend: [2, INGRESS_BACKEND, required],
});

const HTTP_INGRESS_RULE_VALUE = EXTENSIONS_V1BETA1.struct('HTTPIngressRuleValue', {
  paths: [1, s.list(HTTP_INGRESS_PATH), required],
});

const INGRESS_RULE_VALUE = EXTENSIONS_V1BETA1.struct('IngressRuleValue', {
  http: [1, HTTP_INGRESS_RULE_VALUE],
});

/** A rule's value is an embedded struct: JSON has `http` beside `host`, protobuf an `ingressRuleValue` message. */
const INGRESS_RULE = EXTENSIONS_V1BETA1.struct('IngressRule', {
  host: [1, s.string],
  ingressRuleValue: [2, INGRESS_RULE_VALUE, inline],
});

const INGRESS_SPEC = EXTENSIONS_V1BETA1.struct('IngressSpec', {
  backend: [1, INGRESS_BACKEND],
  tls: [2, s.list(INGRESS_TLS)],
  rules: [3, s.list(INGRESS_RULE)],
});

const INGRESS_STATUS = EXTENSIONS_V1BETA1.struct('IngressStatus', {
  loadBalancer: [1, LOAD_BALANCER_STATUS],
});

export const INGRESS = resourceKind(EXTENSIONS_V1BETA1, 'Ingress', {
  spec: [2, INGRESS_SPEC],
  status: [3, INGRESS_STATUS],
});

export type Backend = TypeOf<typeof INGRESS_BACKEND>;
export type Ingress = KindObject<typeof INGRESS>;
