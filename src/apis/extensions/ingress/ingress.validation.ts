import { isIP } from 'node:net';
import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { dns1035Label, dns1123Subdomain, wildcardDns1123Subdomain } from '../../../apimachinery/validation/names';
import { validatePortNumOrName } from '../../workloads/pod-template/handler.validation';
import { Backend, Ingress } from './ingress.schema';

/** A host name: `*.example.com` or a DNS-1123 subdomain. */
const hostErrors = (host: string) => (host.includes('*') ? wildcardDns1123Subdomain(host) : dns1123Subdomain(host));

function validateBackend(backend: Backend, field: string): FieldError[] {
  if (!backend.serviceName) return [fieldErrors.required(`${field}.serviceName`)];
  return [
    ...dns1035Label(backend.serviceName).map((m) => fieldErrors.invalid(`${field}.serviceName`, backend.serviceName, m)),
    ...validatePortNumOrName(backend.servicePort, `${field}.servicePort`),
  ];
}

function isValidRegex(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

function validateRules(rules: NonNullable<NonNullable<Ingress['spec']>['rules']>): FieldError[] {
  const errors: FieldError[] = [];
  rules.forEach((rule, i) => {
    const host = rule.host;
    if (host) {
      if (isIP(host)) errors.push(fieldErrors.invalid(`spec.rules[${i}].host`, host, 'must be a DNS name, not an IP address'));
      for (const message of hostErrors(host)) errors.push(fieldErrors.invalid(`spec.rules[${i}].host`, host, message));
    }
    if (!rule.http) return;
    // 1.7 reports the rule's value at spec.rules[0], whatever the rule's index
    const http = 'spec.rules[0].http';
    const paths = rule.http.paths ?? [];
    if (paths.length === 0) errors.push(fieldErrors.required(`${http}.paths`));
    paths.forEach((entry, j) => {
      const path = entry.path;
      if (path && !path.startsWith('/')) errors.push(fieldErrors.invalid(`${http}.paths[${j}].path`, path, 'must be an absolute path'));
      if (path && !isValidRegex(path)) errors.push(fieldErrors.invalid(`${http}.paths[${j}].path`, path, 'must be a valid regex'));
      errors.push(...validateBackend(entry.backend ?? {}, `${http}.backend`));
    });
  });
  return errors;
}

/** The spec checks of an Ingress, as upstream's `ValidateIngressSpec`, with 1.7's field paths. */
export function validateIngress(ingress: Ingress): FieldError[] {
  const spec = ingress.spec ?? {};
  const errors: FieldError[] = [];
  if (spec.backend) errors.push(...validateBackend(spec.backend, 'spec.backend'));
  else if (!spec.rules?.length) errors.push(fieldErrors.invalid('spec', spec.rules ?? null, 'either `backend` or `rules` must be specified'));
  if (spec.rules?.length) errors.push(...validateRules(spec.rules));
  for (const tls of spec.tls ?? []) {
    // 1.7 indexes the path by the host, not by the tls entry
    (tls.hosts ?? []).forEach((host, i) => {
      for (const message of hostErrors(host)) errors.push(fieldErrors.invalid(`spec.tls[${i}].hosts`, host, message));
    });
  }
  return errors;
}

/** A `/status` write: load balancer entries with a valid IP and a DNS hostname. */
export function validateIngressStatus(ingress: Ingress): FieldError[] {
  const errors: FieldError[] = [];
  (ingress.status?.loadBalancer?.ingress ?? []).forEach((entry, i) => {
    const path = `status.loadBalancer.ingress[${i}]`;
    if (entry.ip && !isIP(entry.ip)) errors.push(fieldErrors.invalid(`${path}.ip`, entry.ip, 'must be a valid IP address'));
    if (entry.hostname) {
      for (const message of dns1123Subdomain(entry.hostname)) errors.push(fieldErrors.invalid(`${path}.hostname`, entry.hostname, message));
      if (isIP(entry.hostname)) errors.push(fieldErrors.invalid(`${path}.hostname`, entry.hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errors;
}
