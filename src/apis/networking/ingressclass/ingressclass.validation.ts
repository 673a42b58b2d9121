import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { dns1123Subdomain } from '../../../apimachinery/validation/names';
import { IngressClass } from './ingressclass.schema';

const MAX_CONTROLLER_LENGTH = 250;
const SCOPES = ['Cluster', 'Namespace'];

/** A domain-prefixed path such as example.com/ingress-controller (upstream's IsDomainPrefixedPath). */
function domainPrefixedPathErrors(field: string, value: string): FieldError[] {
  const slash = value.indexOf('/');
  if (slash < 0) return [fieldErrors.invalid(field, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const host = value.slice(0, slash);
  return dns1123Subdomain(host).map((message) => fieldErrors.invalid(field, host, message));
}

type Parameters = NonNullable<NonNullable<IngressClass['spec']>['parameters']>;

function validateParameters(parameters: Parameters, field: string): FieldError[] {
  const errors: FieldError[] = [];
  if (parameters.apiGroup) errors.push(...dns1123Subdomain(parameters.apiGroup).map((m) => fieldErrors.invalid(`${field}.apiGroup`, parameters.apiGroup, m)));
  if (!parameters.kind) errors.push(fieldErrors.required(`${field}.kind`));
  if (!parameters.name) errors.push(fieldErrors.required(`${field}.name`));
  const { scope, namespace } = parameters;
  if (scope === undefined) errors.push(fieldErrors.required(`${field}.scope`));
  else if (!SCOPES.includes(scope)) errors.push(fieldErrors.notSupported(`${field}.scope`, scope, SCOPES));
  else if (scope === 'Namespace' && namespace === undefined) errors.push(fieldErrors.required(`${field}.namespace`, "`parameters.scope` is set to 'Namespace'"));
  else if (scope === 'Cluster' && namespace !== undefined) errors.push(fieldErrors.forbidden(`${field}.namespace`, "`parameters.scope` is set to 'Cluster'"));
  return errors;
}

/** upstream's ValidateIngressClass: a controller, and parameters that name a resource. */
export function validateIngressClass(ingressClass: IngressClass): FieldError[] {
  const { controller = '', parameters } = ingressClass.spec ?? {};
  const errors: FieldError[] = [];
  if (controller.length > MAX_CONTROLLER_LENGTH) errors.push(fieldErrors.tooLong('spec.controller', MAX_CONTROLLER_LENGTH));
  errors.push(...domainPrefixedPathErrors('spec.controller', controller));
  if (parameters) errors.push(...validateParameters(parameters, 'spec.parameters'));
  return errors;
}

/** An update: the controller cannot change. */
export function validateIngressClassUpdate(ingressClass: IngressClass, old: IngressClass): FieldError[] {
  const errors = validateIngressClass(ingressClass);
  const controller = ingressClass.spec?.controller ?? '';
  if (controller !== (old.spec?.controller ?? '')) errors.push(fieldErrors.invalid('spec.controller', controller, 'field is immutable'));
  return errors;
}
