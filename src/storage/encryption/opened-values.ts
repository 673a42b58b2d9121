/** A value opened: the stored text it was read from, the value, and (once asked for) the value as a JSON string. */
export interface OpenedValue {
  stored: string;
  value: string;
  json?: string;
}

/**
 * The values most recently opened, by where they are stored (object and field), each with the stored text it was
 * opened from (whose nonce makes each write's unique), so that reading the same object again does not decrypt it
 * again: the kind of memory of plaintext the apiserver's watch cache keeps of every object. Least recently used
 * first out, beyond `maxChars` in all.
 */
export class OpenedValues {
  private readonly values = new Map<string, OpenedValue>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  /** The value opened from `stored` at `where`, if it is still known. */
  get(where: string, stored: string): OpenedValue | undefined {
    const known = this.values.get(where);
    if (known === undefined || known.stored !== stored) return undefined;
    this.values.delete(where);
    this.values.set(where, known);
    return known;
  }

  set(where: string, opened: OpenedValue): void {
    const size = (value: OpenedValue) => where.length + value.stored.length + 2 * value.value.length;
    const old = this.values.get(where);
    if (old) {
      this.values.delete(where);
      this.chars -= size(old);
    }
    this.values.set(where, opened);
    this.chars += size(opened);
    for (const [oldestWhere, oldest] of this.values) {
      if (this.chars <= this.maxChars) break;
      this.values.delete(oldestWhere);
      this.chars -= oldestWhere.length + oldest.stored.length + 2 * oldest.value.length;
    }
  }
}
