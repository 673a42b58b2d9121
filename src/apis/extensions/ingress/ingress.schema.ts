import { KindObject, OBJECT_META, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { outsideCatalogue, TypeDeclarer } from '../../../apimachinery/schema/go-packages';
import { CORE_V1 } from '../../workloads/pod-template/core-v1';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';
import { described, FieldSpecs, inline, pointer, required, s, StructSchema } from '../../../apimachinery/schema/schema';
import { TypeOf } from '../../../apimachinery/schema/type-of';

/** What differs between the Ingress types of a package: the backend, and the fields later releases added. */
interface IngressParts<BackendType extends StructSchema, Backend extends FieldSpecs, PathType extends FieldSpecs, ClassName extends FieldSpecs, LoadBalancer extends StructSchema> {
  /** the backend type */
  backend: BackendType;
  /** the spec's backend for requests no rule matches: `backend` in extensions, `defaultBackend` in networking.k8s.io/v1 */
  defaultBackend: Backend;
  /** what a path's `path` means: a regular expression in 1.7, matched as `pathType` says later */
  pathMeaning: string;
  /** `pathType`, from 1.18 on */
  pathType: PathType;
  /** `ingressClassName`, from 1.18 on */
  ingressClassName: ClassName;
  /** the status' load balancer: core's LoadBalancerStatus in 1.7, the Ingress' own with ports from 1.26 on */
  loadBalancer: LoadBalancer;
}

/**
 * The spec and status types of an Ingress declared in a package: extensions/v1beta1 (as 1.7 served it, and as later
 * releases stored it) and networking.k8s.io/v1 have the same types but for the backend and the later fields.
 */
export function ingressTypes<
  BackendType extends StructSchema,
  const Backend extends FieldSpecs,
  const PathType extends FieldSpecs,
  const ClassName extends FieldSpecs,
  LoadBalancer extends StructSchema,
>(pkg: TypeDeclarer, parts: IngressParts<BackendType, Backend, PathType, ClassName, LoadBalancer>) {
  const tls = pkg.struct('IngressTLS', {
    hosts: [1, s.stringList, described('Hosts the certificate is for.')],
    secretName: [2, s.string, described('Secret holding the TLS certificate and key.')],
  });
  const path = pkg.struct('HTTPIngressPath', {
    path: [1, s.string, described(parts.pathMeaning)],
    ...parts.pathType,
    backend: [2, parts.backend, required, described('Where the matching requests go.')],
  });
  const httpRule = pkg.struct('HTTPIngressRuleValue', {
    paths: [1, s.list(path), required, described('Paths and where their requests go.')],
  });
  const ruleValue = pkg.struct('IngressRuleValue', {
    http: [1, httpRule, described('HTTP routing of the rule.')],
  });
  // a rule's value is an embedded struct: JSON has `http` beside `host`, protobuf an `ingressRuleValue` message
  const rule = pkg.struct('IngressRule', {
    host: [1, s.string, described('Host name the rule applies to; every host when empty.')],
    ingressRuleValue: [2, ruleValue, inline],
  });
  const spec = pkg.struct('IngressSpec', {
    ...parts.ingressClassName,
    ...parts.defaultBackend,
    tls: [2, s.list(tls), described('TLS settings, by set of hosts.')],
    rules: [3, s.list(rule), described('Routing rules, by host and path.')],
  });
  const status = pkg.struct('IngressStatus', {
    loadBalancer: [1, parts.loadBalancer, described('Entry points of the load balancer.')],
  });
  return { spec, status };
}

/** The ingress points of a load balancer, with the ports of each (core's LoadBalancerIngress had no ports in 1.7). */
export function ingressLoadBalancerStatus<const Ports extends FieldSpecs>(pkg: TypeDeclarer, name: string, ports: Ports) {
  const point = pkg.struct(`${name}Ingress`, {
    ip: [1, s.string, described('IP address of an entry point of the load balancer.')],
    hostname: [2, s.string, described('Host name of an entry point of the load balancer.')],
    ...ports,
  });
  return pkg.struct(`${name}Status`, {
    ingress: [1, s.list(point), described('Entry points of the load balancer.')],
  });
}

/** The status of a port of an entry point of a load balancer (from 1.24 on). */
export function ingressPortStatus(pkg: TypeDeclarer) {
  return pkg.struct('IngressPortStatus', {
    port: [1, s.int32, required, described('Port number of the entry point.')],
    protocol: [2, s.string, required, described('Protocol of the port: TCP, UDP or SCTP.')],
    error: [3, s.string, pointer, described('Problem with the port, as a CamelCase reason or domain-prefixed name.')],
  });
}

/** What `path` means where a path has a `pathType`. */
export const PATH_MEANING = 'Path requests must match, as pathType says; every path when empty.';

/** The `pathType` field of a path: how `path` is matched. */
export const PATH_TYPE_FIELD = {
  pathType: [3, s.string, described('How the path is matched: Exact, Prefix or ImplementationSpecific.')],
} as const satisfies FieldSpecs;

/** The `ingressClassName` field of a spec: the IngressClass that implements the ingress. */
export const INGRESS_CLASS_NAME_FIELD = {
  ingressClassName: [4, s.string, pointer, described('Name of the IngressClass cluster resource that implements the ingress.')],
} as const satisfies FieldSpecs;

/** The typed reference of a resource backend, such as an object of a storage bucket's kind. */
export const TYPED_LOCAL_OBJECT_REFERENCE = CORE_V1.struct('TypedLocalObjectReference', {
  apiGroup: [1, s.string, pointer, described('Group of the referenced resource; the core group when empty.')],
  kind: [2, s.string, required, described('Kind of the referenced resource.')],
  name: [3, s.string, required, described('Name of the referenced resource.')],
});

const BACKEND_DESCRIPTION = described('Where requests that match no rule go.');

const INGRESS_BACKEND = EXTENSIONS_V1BETA1.struct('IngressBackend', {
  serviceName: [1, s.string, required, described('Name of the service requests go to.')],
  servicePort: [2, s.intOrString, required, described('Port of that service, by number or by name.')],
});

const INGRESS_1_7 = ingressTypes(EXTENSIONS_V1BETA1, {
  backend: INGRESS_BACKEND,
  defaultBackend: { backend: [1, INGRESS_BACKEND, BACKEND_DESCRIPTION] },
  pathMeaning: 'Path requests must match, as a regular expression; every path when empty.',
  pathType: {},
  ingressClassName: {},
  loadBalancer: ingressLoadBalancerStatus(CORE_V1, 'LoadBalancer', {}),
});

/** extensions/v1beta1 Ingress as 1.7 serves it. */
export const INGRESS = resourceKind(EXTENSIONS_V1BETA1, 'Ingress', {
  spec: [2, INGRESS_1_7.spec, described('Desired routing of the ingress.')],
  status: [3, INGRESS_1_7.status, described('Observed state of the ingress.')],
});

const STORED = outsideCatalogue(EXTENSIONS_V1BETA1);

const STORED_INGRESS_BACKEND = STORED.struct('IngressBackend', {
  serviceName: [1, s.string, described('Name of the service requests go to.')],
  servicePort: [2, s.intOrString, described('Port of that service, by number or by name.')],
  resource: [3, TYPED_LOCAL_OBJECT_REFERENCE, described('An object of the ingress namespace that requests go to, instead of a service.')],
});

const STORED_INGRESS_TYPES = ingressTypes(STORED, {
  backend: STORED_INGRESS_BACKEND,
  defaultBackend: { backend: [1, STORED_INGRESS_BACKEND, BACKEND_DESCRIPTION] },
  pathMeaning: PATH_MEANING,
  pathType: PATH_TYPE_FIELD,
  ingressClassName: INGRESS_CLASS_NAME_FIELD,
  loadBalancer: ingressLoadBalancerStatus(STORED, 'IngressLoadBalancer', { ports: [4, s.list(ingressPortStatus(STORED)), described('Ports of the entry point.')] }),
});

/**
 * The stored Ingress: extensions/v1beta1 as later releases had it (pathType, ingressClassName, resource backends,
 * the ports of the load balancer), which networking.k8s.io/v1 converts to and from. extensions/v1beta1 still serves
 * INGRESS, 1.7's shape; an object that never used the later fields reads the same in both.
 */
export const STORED_INGRESS = STORED.struct('Ingress', {
  metadata: [1, OBJECT_META],
  spec: [2, STORED_INGRESS_TYPES.spec],
  status: [3, STORED_INGRESS_TYPES.status],
});

export type Backend = TypeOf<typeof INGRESS_BACKEND>;
export type Ingress = KindObject<typeof INGRESS>;
export type StoredIngress = KindObject<typeof STORED_INGRESS>;
export type StoredIngressBackend = TypeOf<typeof STORED_INGRESS_BACKEND>;
