import { apiErrors } from '../../apimachinery/errors/status-error';

/** PostgreSQL text holds no NUL character, so no stored name, namespace or field has one. */
export const holdsNul = (value: string) => value.includes('\0');

/** Collects the parameters of one SQL statement; `add` returns the placeholder to write in the statement text. */
export class SqlParams {
  readonly values: unknown[] = [];

  /** A string with a NUL cannot be sent to PostgreSQL: the client's value is refused (400), not the statement (500). */
  add(value: unknown): string {
    if (typeof value === 'string' && holdsNul(value)) {
      throw apiErrors.badRequest(`invalid value ${JSON.stringify(value)}: must not contain a NUL character`);
    }
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A condition on the `objects` table, written with placeholders from a SqlParams (never with user text inline). */
export type SqlCondition = (params: SqlParams) => string;
