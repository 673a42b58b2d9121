import { FieldError, fieldErrors } from '../errors/field-error';

/** The apiserver's ValidateNonnegativeField: an absent value counts as 0. */
export function nonNegative(value: number | undefined, field: string): FieldError[] {
  return value !== undefined && value < 0 ? [fieldErrors.invalid(field, value, 'must be greater than or equal to 0')] : [];
}
