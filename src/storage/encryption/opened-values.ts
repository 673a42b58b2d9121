import { SealedTexts } from './sealed-texts';

/** Characters of a stored text's beginning (the provider's prefix, the nonce and secretbox's tag) and end (GCM's tag). */
const HEAD = 80;
const TAIL = 24;

interface OpenedValue {
  /**
   * What identifies the stored text the values were opened from among the texts of one object: its length, its
   * beginning and its end, which hold the write's random nonce and (for aesgcm and secretbox) the tag that
   * authenticates the rest
   */
  length: number;
  head: string;
  tail: string;
  texts: SealedTexts;
}

/** A string of its own: a slice would keep the whole row's text alive for as long as the values are remembered. */
const ownCopy = (text: string) => Buffer.from(text, 'utf8').toString('utf8');

function openedValue(stored: string, texts: SealedTexts): OpenedValue {
  const whole = stored.length <= HEAD + TAIL;
  return { length: stored.length, head: ownCopy(whole ? stored : stored.slice(0, HEAD)), tail: whole ? '' : ownCopy(stored.slice(-TAIL)), texts };
}

/** Whether `stored` is the text the values were opened from, told without copying anything of it. */
const isFrom = (opened: OpenedValue, stored: string) => stored.length === opened.length && stored.startsWith(opened.head) && stored.endsWith(opened.tail);

const sizeOf = (where: string, opened: OpenedValue) => Object.values(opened.texts).reduce((chars, text) => chars + text.length, where.length + opened.head.length + opened.tail.length);

/** Objects read once whose next read is remembered: beyond this many, the record starts again. */
const MAX_READ_ONCE = 100_000;

/**
 * The values of the objects most recently written or read more than once, by object, each with what identifies the
 * stored text they were opened from (whose nonce makes each write's unique), so that reading the same object again
 * does not decrypt it again: the kind of memory of plaintext the apiserver's watch cache keeps of every object. Two
 * generations of about `maxChars / 2` each: when the newer is full it becomes the older and the older is dropped, and
 * an object found in the older moves to the newer, so what is used stays and nothing is ever scanned.
 *
 * An object's first read is not remembered, only noted: keeping the values of every object read once (a list, a
 * relist, another instance's writes read back once) would make the garbage collector copy and promote them all, which
 * costs more than opening the few that are read again.
 */
export class OpenedValues {
  private newer = new Map<string, OpenedValue>();
  private older = new Map<string, OpenedValue>();
  private newerChars = 0;
  private readOnce = new Set<string>();

  constructor(private readonly maxChars: number) {}

  /** The values opened from `stored` at `where`, if they are still known. */
  get(where: string, stored: string): SealedTexts | undefined {
    const known = this.newer.get(where) ?? this.older.get(where);
    if (known === undefined || !isFrom(known, stored)) return undefined;
    if (!this.newer.has(where)) this.keep(where, known);
    return known.texts;
  }

  /** Remembers the values an instance wrote: they are likely to be read back. */
  written(where: string, stored: string, texts: SealedTexts): void {
    this.keep(where, openedValue(stored, texts));
  }

  /** Remembers values just opened when the object was read before. */
  read(where: string, stored: string, texts: SealedTexts): void {
    if (this.readOnce.delete(where)) {
      this.keep(where, openedValue(stored, texts));
      return;
    }
    if (this.readOnce.size >= MAX_READ_ONCE) this.readOnce = new Set();
    this.readOnce.add(where);
  }

  private keep(where: string, opened: OpenedValue): void {
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
