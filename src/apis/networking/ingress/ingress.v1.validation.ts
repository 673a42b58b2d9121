import { isIP } from 'node:net';
import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { dns1035Label, dns1123Subdomain, portName, portNumber, wildcardDns1123Subdomain } from '../../../apimachinery/validation/names';
import { IngressV1, IngressV1Backend } from './ingress.v1.schema';

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
export const CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

const INVALID_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_SUFFIXES = ['/..', '/.'];

const hostErrors = (host: string) => (host.includes('*') ? wildcardDns1123Subdomain(host) : dns1123Subdomain(host));

const invalidAll = (field: string, value: unknown, messages: string[]) => messages.map((m) => fieldErrors.invalid(field, value, m));

function validateBackend(backend: IngressV1Backend, field: string): FieldError[] {
  const { service, resource } = backend;
  if (service && resource) return [fieldErrors.invalid(field, '', 'cannot set both resource and service backends')];
  if (resource) {
    const errors: FieldError[] = [];
    if (resource.apiGroup) errors.push(...invalidAll(`${field}.resource.apiGroup`, resource.apiGroup, dns1123Subdomain(resource.apiGroup)));
    if (!resource.kind) errors.push(fieldErrors.required(`${field}.resource.kind`));
    if (!resource.name) errors.push(fieldErrors.required(`${field}.resource.name`));
    return errors;
  }
  if (!service) return [fieldErrors.invalid(field, '', 'resource or service backend is required')];
  const errors = service.name ? invalidAll(`${field}.service.name`, service.name, dns1035Label(service.name)) : [fieldErrors.required(`${field}.service.name`)];
  const { name, number } = service.port ?? {};
  const port = `${field}.service.port`;
  if (name && number) errors.push(fieldErrors.invalid(port, '', 'cannot set both port name & port number'));
  else if (name) errors.push(...invalidAll(`${port}.name`, name, portName(name)));
  else if (number) errors.push(...invalidAll(`${port}.number`, number, portNumber(number)));
  else errors.push(fieldErrors.required(port, 'port name or number is required'));
  return errors;
}

/** A path's checks by its type (upstream's validateHTTPIngressPath). */
function validatePath(path: string | undefined, pathType: string | undefined, field: string): FieldError[] {
  if (pathType === undefined) return [fieldErrors.required(`${field}.pathType`, 'pathType must be specified')];
  const value = path ?? '';
  const errors: FieldError[] = [];
  if (pathType === 'ImplementationSpecific') {
    if (value && !value.startsWith('/')) errors.push(fieldErrors.invalid(`${field}.path`, value, 'must be an absolute path'));
  } else if (pathType === 'Exact' || pathType === 'Prefix') {
    if (!value.startsWith('/')) errors.push(fieldErrors.invalid(`${field}.path`, value, 'must be an absolute path'));
    for (const sequence of INVALID_SEQUENCES) if (value.includes(sequence)) errors.push(fieldErrors.invalid(`${field}.path`, value, `must not contain '${sequence}'`));
    for (const suffix of INVALID_SUFFIXES) if (value.endsWith(suffix)) errors.push(fieldErrors.invalid(`${field}.path`, value, `cannot end with '${suffix}'`));
  } else errors.push(fieldErrors.notSupported(`${field}.pathType`, pathType, PATH_TYPES));
  return errors;
}

/**
 * A networking.k8s.io/v1 Ingress, as upstream's ValidateIngressSpec checks it, and on create (ValidateIngressCreate)
 * its class annotation.
 */
export function validateIngressV1(ingress: IngressV1, onCreate: boolean): FieldError[] {
  const spec = ingress.spec ?? {};
  const errors: FieldError[] = [];
  if (!spec.rules?.length && !spec.defaultBackend) errors.push(fieldErrors.invalid('spec', spec.rules ?? null, 'either `defaultBackend` or `rules` must be specified'));
  if (spec.defaultBackend) errors.push(...validateBackend(spec.defaultBackend, 'spec.defaultBackend'));
  (spec.rules ?? []).forEach((rule, i) => {
    const field = `spec.rules[${i}]`;
    if (rule.host) {
      if (isIP(rule.host)) errors.push(fieldErrors.invalid(`${field}.host`, rule.host, 'must be a DNS name, not an IP address'));
      errors.push(...invalidAll(`${field}.host`, rule.host, hostErrors(rule.host)));
    }
    if (!rule.http) return;
    const paths = rule.http.paths ?? [];
    if (paths.length === 0) errors.push(fieldErrors.required(`${field}.http.paths`));
    paths.forEach((entry, j) => {
      const pathField = `${field}.http.paths[${j}]`;
      errors.push(...validatePath(entry.path, entry.pathType, pathField), ...validateBackend(entry.backend ?? {}, `${pathField}.backend`));
    });
  });
  (spec.tls ?? []).forEach((tls, i) => {
    (tls.hosts ?? []).forEach((host, j) => errors.push(...invalidAll(`spec.tls[${i}].hosts[${j}]`, host, hostErrors(host))));
  });
  const className = spec.ingressClassName;
  if (className !== undefined) errors.push(...invalidAll('spec.ingressClassName', className, dns1123Subdomain(className)));
  const annotated = ingress.metadata.annotations?.[CLASS_ANNOTATION];
  if (onCreate && className !== undefined && annotated !== undefined && annotated !== className) {
    errors.push(fieldErrors.invalid(`metadata.annotations[${CLASS_ANNOTATION}]`, annotated, 'must match `ingressClassName` when both are specified'));
  }
  return errors;
}
