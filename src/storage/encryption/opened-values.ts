/**
 * The values of an object, opened: the stored text they were read from, and the JSON text of each sealed member
 * (`data`, `binaryData`, the last-applied annotation), by name.
 */
export interface OpenedValue {
  stored: string;
  texts: Readonly<Record<string, string>>;
}

const sizeOf = (where: string, opened: OpenedValue) => Object.values(opened.texts).reduce((chars, text) => chars + text.length, where.length + opened.stored.length);

/**
 * The values of the objects most recently opened, by object, each with the stored text it was opened from (whose
 * nonce makes each write's unique), so that reading the same object again does not decrypt it again: the kind of
 * memory of plaintext the apiserver's watch cache keeps of every object. Two generations of about `maxChars / 2`
 * each: when the newer is full it becomes the older and the older is dropped, and an object found in the older moves
 * to the newer, so what is used stays and nothing is ever scanned.
 */
export class OpenedValues {
  private newer = new Map<string, OpenedValue>();
  private older = new Map<string, OpenedValue>();
  private newerChars = 0;

  constructor(private readonly maxChars: number) {}

  /** The values opened from `stored` at `where`, if they are still known. */
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
