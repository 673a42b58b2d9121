import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { CORE_V1 } from '../../workloads/pod-template/core-v1';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';
import { described, inline, required, s } from '../../../apimachinery/schema/schema';
import { TypeOf } from '../../../apimachinery/schema/type-of';

const LOAD_BALANCER_INGRESS = CORE_V1.struct('LoadBalancerIngress', {
  ip: [1, s.string, described('IP address of an entry point of the load balancer.')],
  hostname: [2, s.string, described('Host name of an entry point of the load balancer.')],
});

const LOAD_BALANCER_STATUS = CORE_V1.struct('LoadBalancerStatus', {
  ingress: [1, s.list(LOAD_BALANCER_INGRESS), described('Entry points of the load balancer.')],
});

const INGRESS_BACKEND = EXTENSIONS_V1BETA1.struct('IngressBackend', {
  serviceName: [1, s.string, required, described('Name of the service requests go to.')],
  servicePort: [2, s.intOrString, required, described('Port of that service, by number or by name.')],
});

const INGRESS_TLS = EXTENSIONS_V1BETA1.struct('IngressTLS', {
  hosts: [1, s.stringList, described('Hosts the certificate is for.')],
  secretName: [2, s.string, described('Secret holding the TLS certificate and key.')],
});

const HTTP_INGRESS_PATH = EXTENSIONS_V1BETA1.struct('HTTPIngressPath', {
  path: [1, s.string, described('Path requests must match, as a regular expression; every path when empty.')],
  backend: [2, INGRESS_BACKEND, required, described('Where the matching requests go.')],
});

const HTTP_INGRESS_RULE_VALUE = EXTENSIONS_V1BETA1.struct('HTTPIngressRuleValue', {
  paths: [1, s.list(HTTP_INGRESS_PATH), required, described('Paths and where their requests go.')],
});

const INGRESS_RULE_VALUE = EXTENSIONS_V1BETA1.struct('IngressRuleValue', {
  http: [1, HTTP_INGRESS_RULE_VALUE, described('HTTP routing of the rule.')],
});

/** A rule's value is an embedded struct: JSON has `http` beside `host`, protobuf an `ingressRuleValue` message. */
const INGRESS_RULE = EXTENSIONS_V1BETA1.struct('IngressRule', {
  host: [1, s.string, described('Host name the rule applies to; every host when empty.')],
  ingressRuleValue: [2, INGRESS_RULE_VALUE, inline],
});

const INGRESS_SPEC = EXTENSIONS_V1BETA1.struct('IngressSpec', {
  backend: [1, INGRESS_BACKEND, described('Where requests that match no rule go.')],
  tls: [2, s.list(INGRESS_TLS), described('TLS settings, by set of hosts.')],
  rules: [3, s.list(INGRESS_RULE), described('Routing rules, by host and path.')],
});

const INGRESS_STATUS = EXTENSIONS_V1BETA1.struct('IngressStatus', {
  loadBalancer: [1, LOAD_BALANCER_STATUS, described('Entry points of the load balancer.')],
});

export const INGRESS = resourceKind(EXTENSIONS_V1BETA1, 'Ingress', {
  spec: [2, INGRESS_SPEC, described('Desired routing of the ingress.')],
  status: [3, INGRESS_STATUS, described('Observed state of the ingress.')],
});

export type Backend = TypeOf<typeof INGRESS_BACKEND>;
export type Ingress = KindObject<typeof INGRESS>;
