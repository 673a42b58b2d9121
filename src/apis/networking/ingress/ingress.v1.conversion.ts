import { KubeObject } from '../../../apimachinery/meta/kube-object';
import { omitEmpty } from '../../../apimachinery/schema/omit-empty';
import { VersionConversion } from '../../../registry/kind-definition';
import { STORED_INGRESS, StoredIngress, StoredIngressBackend } from '../../extensions/ingress/ingress.schema';
import { INGRESS_V1, IngressV1, IngressV1Backend } from './ingress.v1.schema';

/** The rules with each path's backend converted; `pathType` as `path` says. */
function convertRules<From extends { backend?: unknown; pathType?: string }, To>(
  rules: readonly { host?: string; http?: { paths?: readonly From[] } }[],
  backend: (from: NonNullable<From['backend']>) => To,
  pathType: (path: From) => string | undefined,
) {
  return rules.map(({ http, ...rule }) => {
    if (!http) return rule;
    const paths = http.paths?.map((path) => ({ ...path, pathType: pathType(path), backend: path.backend && backend(path.backend as NonNullable<From['backend']>) }));
    return { ...rule, http: { ...http, paths } };
  });
}

/** upstream's Convert_networking_IngressBackend_To_v1beta1_IngressBackend: a port by name, else by number */
function storedBackend({ service, resource }: IngressV1Backend): StoredIngressBackend {
  const backend: StoredIngressBackend = {};
  if (service) {
    backend.serviceName = service.name ?? '';
    backend.servicePort = service.port?.name ? service.port.name : (service.port?.number ?? 0);
  }
  if (resource) backend.resource = resource;
  return backend;
}

/** upstream's conversion the other way: a service where the stored backend names one or a port */
function v1Backend({ serviceName, servicePort, resource }: StoredIngressBackend): IngressV1Backend {
  const backend: IngressV1Backend = {};
  if (serviceName || typeof servicePort === 'string' || servicePort) {
    backend.service = { name: serviceName ?? '', port: typeof servicePort === 'string' ? { name: servicePort } : { number: servicePort ?? 0 } };
  }
  if (resource) backend.resource = resource;
  return backend;
}

const withApiVersion = (object: KubeObject, apiVersion: string) => (object.apiVersion === undefined ? object : { ...object, apiVersion });

/** A networking.k8s.io/v1 Ingress in the stored (extensions/v1beta1) form. */
export function ingressToStored(ingress: IngressV1): StoredIngress {
  const { spec, status, ...rest } = withApiVersion(ingress, 'extensions/v1beta1') as IngressV1;
  if (!spec) return { ...rest, status };
  const { ingressClassName, defaultBackend, tls, rules } = spec;
  const stored: NonNullable<StoredIngress['spec']> = { ingressClassName, backend: defaultBackend && storedBackend(defaultBackend), tls };
  if (rules) stored.rules = convertRules(rules, storedBackend, (path) => path.pathType);
  return { ...rest, spec: stored, status };
}

/**
 * A stored Ingress as networking.k8s.io/v1 has it. `pathType` stays unset where the stored path has none, which
 * validation of a networking.k8s.io/v1 write refuses; reads fill it in (INGRESS_V1_CONVERSION).
 */
export function ingressFromStored(stored: StoredIngress, defaultPathType?: string): IngressV1 {
  const { spec, status, ...rest } = withApiVersion(stored, 'networking.k8s.io/v1') as StoredIngress;
  if (!spec) return { ...rest, status };
  const { ingressClassName, backend, tls, rules } = spec;
  const v1: NonNullable<IngressV1['spec']> = { ingressClassName, defaultBackend: backend && v1Backend(backend), tls };
  if (rules) v1.rules = convertRules(rules, v1Backend, (path) => path.pathType ?? defaultPathType);
  return { ...rest, spec: v1, status };
}

const dropUndefined = (object: KubeObject): KubeObject => JSON.parse(JSON.stringify(object)) as KubeObject;

/**
 * networking.k8s.io/v1 Ingresses, stored as extensions/v1beta1 ones: renames and moves both ways, so nothing is lost.
 * A path stored without a pathType (written through extensions/v1beta1, as 1.7 wrote it) reads as
 * ImplementationSpecific, the type later releases' extensions/v1beta1 defaulted it to.
 */
export const INGRESS_V1_CONVERSION: VersionConversion = {
  toStored: (object) => dropUndefined(ingressToStored(object as IngressV1)),
  fromStored: (object) => omitEmpty(INGRESS_V1, dropUndefined(ingressFromStored(object as StoredIngress, 'ImplementationSpecific'))),
  storedShape: STORED_INGRESS,
};
