const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;
const SPACE = 32;

/**
 * JSON text as PostgreSQL writes a jsonb value, which puts a space after every `:` and `,` between members and
 * elements, written compactly as JSON.stringify would (jsonb escapes strings as it does, and keeps member order).
 */
export function compactJsonbText(text: string): string {
  const parts: string[] = [];
  let copiedTo = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(text, i);
    } else if ((c === COLON || c === COMMA) && text.charCodeAt(i + 1) === SPACE) {
      parts.push(text.slice(copiedTo, i + 1));
      copiedTo = i + 2;
      i++;
    }
  }
  if (copiedTo === 0) return text;
  parts.push(text.slice(copiedTo));
  return parts.join('');
}

/** Where the string opened by the quote at `opening` ends (the text's end if it does not). */
function closingQuote(text: string, opening: number): number {
  for (let at = text.indexOf('"', opening + 1); at !== -1; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return text.length;
}
