import { KubeObject } from '../../../apimachinery/meta/kube-object';
import { s } from '../../../apimachinery/schema/schema';

const BACKEND = s.struct('IngressBackend', { serviceName: s.string, servicePort: s.intOrString });

export const INGRESS_FIELDS = {
  spec: s.struct('IngressSpec', {
    backend: BACKEND,
    tls: s.list(s.struct('IngressTLS', { hosts: s.stringList, secretName: s.string })),
    rules: s.list(
      s.struct('IngressRule', {
        host: s.string,
        http: s.struct('HTTPIngressRuleValue', { paths: s.list(s.struct('HTTPIngressPath', { path: s.string, backend: BACKEND })) }),
      }),
    ),
  }),
  status: s.struct('IngressStatus', {
    loadBalancer: s.struct('LoadBalancerStatus', { ingress: s.list(s.struct('LoadBalancerIngress', { ip: s.string, hostname: s.string })) }),
  }),
};

export interface Backend {
  serviceName?: string;
  servicePort?: number | string;
}

export interface Ingress extends KubeObject {
  spec?: {
    backend?: Backend;
    tls?: { hosts?: string[]; secretName?: string }[];
    rules?: { host?: string; http?: { paths?: { path?: string; backend?: Backend }[] } }[];
  };
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } };
}
