import { UnreadableValue } from './value-transformer';

/** JSON texts of an object's sealed members, by name. */
export type SealedTexts = Readonly<Record<string, string>>;

/** How the plaintext holds a member: its JSON text's UTF-8 bytes (their count), or a map's keys and values' bytes. */
type Layout = number | (string | number)[];

/** Whether a map's values are all base64 as its canonical encoding writes it, which its bytes can stand for. */
function isBase64Map(values: unknown): values is Record<string, string> {
  if (values === null || typeof values !== 'object' || Array.isArray(values)) return false;
  return Object.values(values).every((value) => typeof value === 'string' && Buffer.from(value, 'base64').toString('base64') === value);
}

/**
 * The plaintext of an object's sealed members (a map of values, or a string), by name: a line of JSON giving each
 * member's name and layout, then their bytes one after another. A map whose values are all base64 (Secrets' data,
 * ConfigMaps' binaryData) is laid out as its keys with the byte lengths of the values' bytes, so that its ciphertext,
 * in base64, is no longer than its values were; any other member as the byte length of its JSON text.
 */
export function packMembers(members: Readonly<Record<string, unknown>>): Buffer {
  const layouts: [string, Layout][] = [];
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(members)) {
    if (isBase64Map(value)) {
      const layout: (string | number)[] = [];
      for (const [key, text] of Object.entries(value)) {
        const bytes = Buffer.from(text, 'base64');
        layout.push(key, bytes.length);
        chunks.push(bytes);
      }
      layouts.push([name, layout]);
    } else {
      const bytes = Buffer.from(JSON.stringify(value));
      layouts.push([name, bytes.length]);
      chunks.push(bytes);
    }
  }
  return Buffer.concat([Buffer.from(`${JSON.stringify(layouts)}\n`), ...chunks]);
}

/** What aescbc, which authenticates nothing, opens from an altered ciphertext. */
const notSealedValues = () => new UnreadableValue('what it decrypts to is not sealed values');

const isLength = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function layoutsIn(header: string): [string, Layout][] {
  let layouts: unknown;
  try {
    layouts = JSON.parse(header);
  } catch {
    throw notSealedValues();
  }
  const valid = (layout: unknown) => isLength(layout) || (Array.isArray(layout) && layout.length % 2 === 0 && layout.every((item, i) => (i % 2 === 0 ? typeof item === 'string' : isLength(item))));
  if (!Array.isArray(layouts) || !layouts.every((entry) => Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && valid(entry[1]))) throw notSealedValues();
  return layouts as [string, Layout][];
}

/** The JSON texts a plaintext of packMembers holds, by name (or of the first format, a line of JSON text lengths). */
export function unpackTexts(plain: Buffer): SealedTexts {
  if (plain[0] !== 0x5b /* [ */) return unpackFirstFormat(plain.toString('utf8'));
  const lineEnd = plain.indexOf(0x0a);
  const texts: Record<string, string> = {};
  let from = lineEnd + 1;
  const take = (length: number, encoding: BufferEncoding) => {
    if (from + length > plain.length) throw notSealedValues();
    from += length;
    return plain.toString(encoding, from - length, from);
  };
  for (const [name, layout] of layoutsIn(plain.toString('utf8', 0, lineEnd))) {
    if (typeof layout === 'number') {
      texts[name] = take(layout, 'utf8');
      continue;
    }
    const values: string[] = [];
    for (let i = 0; i < layout.length; i += 2) values.push(`${JSON.stringify(layout[i])}:"${take(layout[i + 1] as number, 'base64')}"`);
    texts[name] = `{${values.join(',')}}`;
  }
  if (from !== plain.length) throw notSealedValues();
  return texts;
}

/**
 * The first format's plaintext (still read, in objects not written since): a line of JSON giving each member's name
 * and the length of its JSON text, then the texts one after another.
 */
function unpackFirstFormat(plain: string): SealedTexts {
  const lineEnd = plain.indexOf('\n');
  let lengths: Record<string, number>;
  try {
    lengths = JSON.parse(plain.slice(0, lineEnd)) as Record<string, number>;
  } catch {
    throw notSealedValues();
  }
  const texts: Record<string, string> = {};
  let from = lineEnd + 1;
  for (const [name, length] of Object.entries(lengths)) {
    texts[name] = plain.slice(from, from + length);
    from += length;
  }
  return texts;
}
