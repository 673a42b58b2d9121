import { nonNegative } from '../../../apimachinery/validation/numbers';
import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { nameRules, qualifiedName } from '../../../apimachinery/validation/names';
import { defineStrategy, KindStrategy } from '../../../registry/kind-definition';
import { Lease, LEASE } from './lease.schema';

/** The strategies Kubernetes itself defines; others must be qualified names with a prefix (`example.com/mine`). */
const LEASE_STRATEGIES = ['OldestEmulationVersion'];

function strategyErrors(strategy: string): FieldError[] {
  const field = 'spec.strategy.strategy'; // upstream names the strategy field twice
  if (!strategy.includes('/')) return LEASE_STRATEGIES.includes(strategy) ? [] : [fieldErrors.notSupported(field, strategy, LEASE_STRATEGIES)];
  return qualifiedName(strategy).map((message) => fieldErrors.invalid(field, strategy, message));
}

function validateLease(lease: Lease): FieldError[] {
  const spec = lease.spec ?? {};
  const errors: FieldError[] = [];
  if (spec.leaseDurationSeconds != null && spec.leaseDurationSeconds <= 0) {
    errors.push(fieldErrors.invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  errors.push(...nonNegative(spec.leaseTransitions ?? undefined, 'spec.leaseTransitions'));
  if (spec.strategy != null) errors.push(...strategyErrors(spec.strategy));
  if (spec.preferredHolder && !spec.strategy) errors.push(fieldErrors.forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
  return errors;
}

/** coordination.k8s.io/v1 Lease: no status, no generation, the same checks on create and update; a PUT may create one. */
export const LEASE_STRATEGY: KindStrategy = defineStrategy({
  nameRule: nameRules.dns1123Subdomain,
  shape: LEASE,
  generation: 'client',
  createsOnUpdate: true,
  validate: validateLease,
  validateUpdate: validateLease,
});
