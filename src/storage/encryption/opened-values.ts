/** A value opened: the stored text it was read from, the value, and (once asked for) the value as a JSON string. */
export interface OpenedValue {
  stored: string;
  value: string;
  json?: string;
}

const sizeOf = (where: string, opened: OpenedValue) => where.length + opened.stored.length + 2 * opened.value.length;

/**
 * The values most recently opened, by where they are stored (object and field), each with the stored text it was
 * opened from (whose nonce makes each write's unique), so that reading the same object again does not decrypt it
 * again: the kind of memory of plaintext the apiserver's watch cache keeps of every object. Two generations of
 * about `maxChars / 2` each: when the newer is full it becomes the older and the older is dropped, and a value found
 * in the older moves to the newer, so what is used stays and nothing is ever scanned.
 */
export class OpenedValues {
  private newer = new Map<string, OpenedValue>();
  private older = new Map<string, OpenedValue>();
  private newerChars = 0;

  constructor(private readonly maxChars: number) {}

  /** The value opened from `stored` at `where`, if it is still known. */
  get(where: string, stored: string): OpenedValue | undefined {
    const known = this.newer.get(where) ?? this.older.get(where);
    if (known === undefined || known.stored !== stored) return undefined;
    if (!this.newer.has(where)) this.set(where, known);
    return known;
  }

  set(where: string, opened: OpenedValue): void {
    this.older.delete(where);
    if (this.newerChars > this.maxChars / 2) {
      this.older = this.newer;
      this.newer = new Map();
      this.newerChars = 0;
    }
    const replaced = this.newer.get(where);
    if (replaced) this.newerChars -= sizeOf(where, replaced);
    this.newer.set(where, opened);
    this.newerChars += sizeOf(where, opened);
  }
}
