const QUOTE = 34; // "
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;
const OPEN_OBJECT = 123; // {
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91; // [
const CLOSE_ARRAY = 93;

/** One member of a JSON object text: its key as written (escapes kept) and its value's text. */
export interface JsonMember {
  key: string;
  value: string;
}

/** The index of the quote that closes the string opened at `open`. */
function stringEnd(text: string, open: number): number {
  let close = text.indexOf('"', open + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(close - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return close;
    close = text.indexOf('"', close + 1);
  }
}

/**
 * The top-level members of the text of a JSON object, found by scanning it without parsing the values (so that a
 * large value can be copied into a response as it is). The text must be valid JSON, as PostgreSQL renders jsonb.
 */
export function jsonMembers(text: string): JsonMember[] {
  const members: JsonMember[] = [];
  let depth = 0;
  let key: string | undefined;
  let valueStart = -1;
  for (let i = 0; i < text.length; i++) {
    switch (text.charCodeAt(i)) {
      case QUOTE: {
        const end = stringEnd(text, i);
        if (depth === 1 && key === undefined) key = text.slice(i + 1, end);
        i = end;
        break;
      }
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        depth++;
        break;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        if (--depth === 0 && key !== undefined) members.push({ key, value: text.slice(valueStart, i).trim() });
        break;
      case COLON:
        if (depth === 1) valueStart = i + 1;
        break;
      case COMMA:
        if (depth === 1) {
          members.push({ key: key as string, value: text.slice(valueStart, i).trim() });
          key = undefined;
        }
    }
  }
  return members;
}
