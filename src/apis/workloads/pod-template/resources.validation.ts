import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { compareQuantities, parseQuantity } from '../../../apimachinery/schema/quantity';
import { qualifiedName } from '../../../apimachinery/validation/names';
import { Container } from './container.schema';

/** Resources a container may name without a domain prefix. */
const STANDARD_CONTAINER_RESOURCES = ['cpu', 'memory'];
const ZERO = parseQuantity('0');

function validateQuantities(quantities: Record<string, string>, field: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, quantity] of Object.entries(quantities)) {
    const path = `${field}[${name}]`;
    for (const message of qualifiedName(name)) errors.push(fieldErrors.invalid(path, name, message));
    if (!name.includes('/') && !STANDARD_CONTAINER_RESOURCES.includes(name)) {
      errors.push(fieldErrors.invalid(path, name, 'must be a standard resource for containers'));
    }
    if (compareQuantities(parseQuantity(quantity), ZERO) < 0) errors.push(fieldErrors.invalid(path, quantity, 'must be greater than or equal to 0'));
  }
  return errors;
}

/** A container's limits and requests: known resource names, no negative amounts, no request above its limit. */
export function validateResources(resources: Container['resources'], field: string): FieldError[] {
  const limits = resources?.limits ?? {};
  const requests = resources?.requests ?? {};
  const errors = [...validateQuantities(limits, `${field}.limits`), ...validateQuantities(requests, `${field}.requests`)];
  for (const [name, request] of Object.entries(requests)) {
    const limit = limits[name];
    if (limit !== undefined && compareQuantities(parseQuantity(request), parseQuantity(limit)) > 0) {
      errors.push(fieldErrors.invalid(`${field}.requests[${name}]`, request, `must be less than or equal to ${name} limit`));
    }
  }
  return errors;
}
