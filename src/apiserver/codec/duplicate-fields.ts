const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;
const COMMA = 0x2c;

const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/** The members of a parsed JSON value, counted through every level. */
function memberCount(value: unknown): number {
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + memberCount(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  let count = 0;
  for (const member of Object.values(value)) count += 1 + memberCount(member);
  return count;
}

/** How often `":` occurs: at least once for every member name written without space before its colon. */
function nameEndings(text: string): number {
  let count = 0;
  for (let at = text.indexOf('":'); at >= 0; at = text.indexOf('":', at + 2)) count += 1;
  return count;
}

/**
 * Whether `text`, whose parse is `parsed`, surely gives no member twice: when no name is followed by space before
 * its colon, every name ends in `":`, so if that pair occurs no more often than the parsed value has members, no
 * name was written twice. A few microseconds where the scan below takes tens, for the bodies most writes send.
 */
function surelyUnique(text: string, parsed: unknown): boolean {
  return !/"\s+:/.test(text) && nameEndings(text) === memberCount(parsed);
}

/**
 * The paths of the members a JSON text gives more than once in one object (`spec.replicas`), which JSON.parse
 * silently resolves to the last. The text has been parsed already (into `parsed`, when the caller still has it
 * unchanged), so it is known to be valid JSON. Every write without a `fieldValidation` of Ignore scans its body, so
 * the scan builds a path only for a duplicate it finds and decodes only member names with escapes.
 */
export function duplicateFields(text: string, parsed?: unknown): string[] {
  if (parsed !== undefined && surelyUnique(text, parsed)) return [];
  const found: string[] = [];
  const path: (string | number)[] = [];
  let at = 0;

  const skipSpace = () => {
    while (at < text.length && isSpace(text.charCodeAt(at))) at += 1;
  };
  /** Moves past a string, answering its content (decoded only when it has escapes, and only when asked). */
  const readString = (decode: boolean): string => {
    const start = at;
    let escaped = false;
    at += 1;
    for (let code = text.charCodeAt(at); code !== QUOTE; code = text.charCodeAt(at)) {
      if (code === BACKSLASH) {
        escaped = true;
        at += 2;
      } else at += 1;
    }
    at += 1;
    if (!decode) return '';
    return escaped ? (JSON.parse(text.slice(start, at)) as string) : text.slice(start + 1, at - 1);
  };
  const written = (member: string) =>
    [...path, member].reduce<string>((so, step) => (typeof step === 'number' ? `${so}[${step}]` : so ? `${so}.${step}` : step), '');

  const readValue = (): void => {
    skipSpace();
    const code = text.charCodeAt(at);
    if (code === OPEN_OBJECT) {
      at += 1;
      const seen = new Set<string>();
      for (skipSpace(); text.charCodeAt(at) !== CLOSE_OBJECT; skipSpace()) {
        if (text.charCodeAt(at) === COMMA) at += 1;
        skipSpace();
        const key = readString(true);
        if (seen.has(key)) found.push(written(key));
        seen.add(key);
        skipSpace();
        at += 1; // the colon
        path.push(key);
        readValue();
        path.pop();
      }
      at += 1;
    } else if (code === OPEN_LIST) {
      at += 1;
      for (let index = 0; (skipSpace(), text.charCodeAt(at) !== CLOSE_LIST); index += 1) {
        if (text.charCodeAt(at) === COMMA) at += 1;
        path.push(index);
        readValue();
        path.pop();
      }
      at += 1;
    } else if (code === QUOTE) {
      readString(false);
    } else {
      while (at < text.length && !',]} \t\n\r'.includes(text[at])) at += 1;
    }
  };

  readValue();
  return found;
}
