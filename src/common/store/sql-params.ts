/** Collects the parameters of one SQL statement; `add` returns the placeholder to write in the statement text. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A condition on the `objects` table, written with placeholders from a SqlParams (never with user text inline). */
export type SqlCondition = (params: SqlParams) => string;
