/** One problem with one field, worded as upstream's `field.Error` words it. */
export type CauseType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany';

export interface FieldError {
  type: CauseType;
  field: string;
  /** the message body without the field path */
  message: string;
}

/** Formats a value the way Go's %q / %v / %#v roughly would; clients never parse it. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

const withDetail = (head: string, detail?: string) => (detail ? `${head}: ${detail}` : head);

export const fieldErrors = {
  required: (field: string, detail?: string): FieldError => ({
    type: 'FieldValueRequired',
    field,
    message: withDetail('Required value', detail),
  }),
  invalid: (field: string, value: unknown, detail?: string): FieldError => ({
    type: 'FieldValueInvalid',
    field,
    message: withDetail(`Invalid value: ${formatValue(value)}`, detail),
  }),
  forbidden: (field: string, detail: string): FieldError => ({
    type: 'FieldValueForbidden',
    field,
    message: withDetail('Forbidden', detail),
  }),
  tooLong: (field: string, max: number): FieldError => ({
    type: 'FieldValueTooLong',
    field,
    message: `Too long: must have at most ${max} characters`,
  }),
  notSupported: (field: string, value: unknown, supported: readonly string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field,
    message: `Unsupported value: ${formatValue(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
  }),
  duplicate: (field: string, value: unknown): FieldError => ({
    type: 'FieldValueDuplicate',
    field,
    message: `Duplicate value: ${formatValue(value)}`,
  }),
  notFound: (field: string, value: unknown): FieldError => ({
    type: 'FieldValueNotFound',
    field,
    message: `Not found: ${formatValue(value)}`,
  }),
  tooMany: (field: string, actual: number, max: number): FieldError => ({
    type: 'FieldValueTooMany',
    field,
    message: `Too many: ${actual}: must have at most ${max} items`,
  }),
};
