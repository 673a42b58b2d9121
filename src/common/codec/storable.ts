/** Nesting far beyond any real object, yet well within what the server's recursive encoders survive. */
export const MAX_DEPTH = 1000;

/** A UTF-16 surrogate without its other half: JSON.parse lets `"\ud800"` through, PostgreSQL's json parser does not. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why a decoded document cannot be stored, or undefined when it can: PostgreSQL's jsonb cannot hold the NUL
 * character or half a surrogate pair, and JSON and YAML encoding recurse once per level of nesting (Go's decoder has
 * a depth limit too).
 */
export function unstorableReason(document: unknown): string | undefined {
  const pending: [value: unknown, depth: number][] = [[document, 1]];
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return 'strings may not contain the NUL character (\\u0000)';
      if (LONE_SURROGATE.test(value)) return 'strings may not contain half of a UTF-16 surrogate pair';
    } else if (typeof value === 'object' && value !== null) {
      if (depth > MAX_DEPTH) return `exceeded max depth of ${MAX_DEPTH}`;
      const children = Array.isArray(value) ? value : Object.entries(value).flat();
      for (const child of children) pending.push([child, depth + 1]);
    }
  }
  return undefined;
}
