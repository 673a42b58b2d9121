/** The label, on a ReplicaSet, its selector and its pods, that tells the pod template apart (DefaultDeploymentUniqueLabelKey). */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

/** The characters of apimachinery's random strings, without vowels and look-alikes. */
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

const FNV32_OFFSET = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;

function fnv32a(bytes: Uint8Array): number {
  let hash = FNV32_OFFSET;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, FNV32_PRIME) >>> 0;
  return hash;
}

/** apimachinery's SafeEncodeString: each character mapped onto ALPHANUMS. */
export function safeEncodeString(text: string): string {
  return [...text].map((char) => ALPHANUMS[(char.codePointAt(0) as number) % ALPHANUMS.length]).join('');
}

/** A JSON text of the value with the keys of every object sorted, so that equal templates give equal texts. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The pod-template-hash of a template (upstream's controller.ComputeHash): FNV-32a of the template, then of the
 * collision count as four little-endian bytes when there is one, its decimal value safe-encoded. Upstream hashes
 * Go's dump of its template struct, which no other program can reproduce; the hash here is of the template's
 * canonical JSON, so it names ReplicaSets the same way without giving the same names as a real cluster.
 */
export function computeHash(template: unknown, collisionCount?: number): string {
  const text = new TextEncoder().encode(canonicalJson(template));
  const bytes = collisionCount === undefined ? text : new Uint8Array(text.length + 4);
  if (collisionCount !== undefined) {
    bytes.set(text);
    new DataView(bytes.buffer).setUint32(text.length, collisionCount >>> 0, true);
  }
  return safeEncodeString(String(fnv32a(bytes)));
}
