/**
 * Finding members in JSON texts as PostgreSQL writes jsonb (`"name": value`, members separated by `, `) without
 * parsing them. A `"name": ` found is always a member's name, never inside a string, where every quote is escaped.
 */

/** A part of a text and what replaces it. */
export interface OutputRange {
  from: number;
  to: number;
  text: string;
}

/**
 * Where a member whose value is a string with no quotes or escapes (as base64 after a prefix) is in an object's text,
 * with a separator (the comma before it, or the one after it when it is the first member), replaced by nothing;
 * and its string.
 */
export function sealedMemberRange(json: string, name: string): (OutputRange & { stored: string }) | undefined {
  const opening = `"${name}": "`;
  const at = json.indexOf(opening);
  if (at < 0) return undefined;
  const closing = json.indexOf('"', at + opening.length);
  if (closing < 0) return undefined;
  const stored = json.slice(at + opening.length, closing);
  if (json.startsWith(', ', at - 2)) return { from: at - 2, to: closing + 1, text: '', stored };
  return { from: at, to: json.startsWith(', ', closing + 1) ? closing + 3 : closing + 1, text: '', stored };
}

/**
 * Where the placeholder value of member `name` is (an empty string, or a map of them, whose key names hold no braces
 * or quotes), after the start of member `within` if given, replaced by `text`; undefined when it is not there.
 */
export function valueRange(json: string, within: string | undefined, name: string, text: string): OutputRange | undefined {
  const start = within === undefined ? 0 : json.indexOf(`"${within}": {`);
  if (start < 0) return undefined;
  const opening = `"${name}": `;
  const at = json.indexOf(opening, start);
  if (at < 0) return undefined;
  const from = at + opening.length;
  if (json.startsWith('""', from)) return { from, to: from + 2, text };
  const closing = json[from] === '{' ? json.indexOf('}', from) : -1;
  return closing < 0 ? undefined : { from, to: closing + 1, text };
}

/** `json` with the ranges (not overlapping) replaced, by concatenation, which copies nothing until the text is read. */
export function splicedText(json: string, ranges: readonly OutputRange[]): string {
  const ordered = ranges.length < 2 ? ranges : [...ranges].sort((a, b) => a.from - b.from);
  let text = '';
  let from = 0;
  for (const range of ordered) {
    text += json.slice(from, range.from) + range.text;
    from = range.to;
  }
  return text + json.slice(from);
}
