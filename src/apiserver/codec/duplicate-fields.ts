/**
 * The paths of the members a JSON text gives more than once in one object (`spec.replicas`), which JSON.parse
 * silently resolves to the last. The text has been parsed already, so it is known to be valid JSON.
 */
export function duplicateFields(text: string): string[] {
  const found: string[] = [];
  let at = 0;

  const skipSpace = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at])) at += 1;
  };
  const readString = (): string => {
    const start = at;
    at += 1;
    while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    at += 1;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const join = (path: string, member: string) => (path ? `${path}.${member}` : member);

  const readValue = (path: string): void => {
    skipSpace();
    const char = text[at];
    if (char === '{') {
      at += 1;
      const seen = new Set<string>();
      for (skipSpace(); text[at] !== '}'; skipSpace()) {
        if (text[at] === ',') at += 1;
        skipSpace();
        const key = readString();
        if (seen.has(key)) found.push(join(path, key));
        seen.add(key);
        skipSpace();
        at += 1; // the colon
        readValue(join(path, key));
      }
      at += 1;
    } else if (char === '[') {
      at += 1;
      for (let index = 0; (skipSpace(), text[at] !== ']'); index += 1) {
        if (text[at] === ',') at += 1;
        readValue(`${path}[${index}]`);
      }
      at += 1;
    } else if (char === '"') {
      readString();
    } else {
      while (at < text.length && !',]} \t\n\r'.includes(text[at])) at += 1;
    }
  };

  readValue('');
  return found;
}
