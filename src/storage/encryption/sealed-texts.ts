import { UnreadableValue } from './value-transformer';

/** JSON texts of an object's sealed members, by name. */
export type SealedTexts = Readonly<Record<string, string>>;

/**
 * The plaintext of an object's sealed members: a line of JSON giving each member's name and length, then their JSON
 * texts one after another, so that a reader takes each text out with a slice instead of parsing the values.
 */
export function packTexts(texts: SealedTexts): string {
  const lengths = Object.fromEntries(Object.entries(texts).map(([name, text]) => [name, text.length]));
  return `${JSON.stringify(lengths)}\n${Object.values(texts).join('')}`;
}

/** The lengths of the texts a plaintext of packTexts holds, by name. */
function lengthsIn(header: string): Record<string, number> {
  try {
    return JSON.parse(header) as Record<string, number>;
  } catch {
    // what aescbc, which authenticates nothing, opens from an altered ciphertext
    throw new UnreadableValue('what it decrypts to is not sealed values');
  }
}

/** The JSON texts a plaintext of packTexts holds, by name. */
export function unpackTexts(plain: string): SealedTexts {
  const lineEnd = plain.indexOf('\n');
  const lengths = lengthsIn(plain.slice(0, lineEnd));
  const texts: Record<string, string> = {};
  let from = lineEnd + 1;
  for (const [name, length] of Object.entries(lengths)) {
    texts[name] = plain.slice(from, from + length);
    from += length;
  }
  return texts;
}
