/** A value that does not fit its message definition. The path grows as the error leaves each enclosing field. */
export class MappingError extends Error {
  private path = '';

  constructor(private readonly detail: string) {
    super(detail);
  }

  /** Prefixes the path with a field name or an `[index]`. */
  within(segment: string): this {
    this.path = this.path === '' ? segment : this.path.startsWith('[') ? `${segment}${this.path}` : `${segment}.${this.path}`;
    this.message = `${this.path}: ${this.detail}`;
    return this;
  }
}

/** Describes a JSON value in an error message. */
export function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value)}`;
}

export const mismatch = (expected: string, value: unknown) => new MappingError(`expected ${expected}, got ${describe(value)}`);
