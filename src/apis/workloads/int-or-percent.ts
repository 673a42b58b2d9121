import { FieldError, fieldErrors } from '../../apimachinery/errors/field-error';
import { nonNegative } from '../../apimachinery/validation/numbers';

const PERCENT = /^[0-9]+%$/;

/** A count given as an integer ≥ 0 or a percent string such as "25%" (maxSurge, maxUnavailable). */
export function validateIntOrPercent(value: number | string | undefined, field: string): FieldError[] {
  if (typeof value !== 'string') return nonNegative(value, field);
  if (PERCENT.test(value)) return [];
  return [
    fieldErrors.invalid(
      field,
      value,
      "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
    ),
  ];
}

/** The number of an integer or a percent (a malformed string counts as 0, as in the apiserver). */
export function intOrPercentValue(value: number | string | undefined): number {
  if (typeof value === 'number') return value;
  if (value === undefined) return 0;
  return PERCENT.test(value) ? Number(value.slice(0, -1)) : Number.parseInt(value, 10) || 0;
}

export function notMoreThan100Percent(value: number | string | undefined, field: string): FieldError[] {
  const over = typeof value === 'string' && PERCENT.test(value) && intOrPercentValue(value) > 100;
  return over ? [fieldErrors.invalid(field, value, 'must not be greater than 100%')] : [];
}
