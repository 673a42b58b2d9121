/** Nesting far beyond any real object, yet well within what the server's recursive encoders survive. */
export const MAX_DEPTH = 1000;

/** A UTF-16 surrogate without its other half: JSON.parse lets `"\ud800"` through, PostgreSQL's json parser does not. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Any surrogate: a cheap first test, so that the full one runs only on the rare strings that have one. */
const SURROGATE = /[\ud800-\udfff]/;

function stringReason(value: string): string | undefined {
  if (value.includes('\u0000')) return 'strings may not contain the NUL character (\\u0000)';
  if (SURROGATE.test(value) && LONE_SURROGATE.test(value)) return 'strings may not contain half of a UTF-16 surrogate pair';
  return undefined;
}

/**
 * Why a decoded document cannot be stored, or undefined when it can: PostgreSQL's jsonb cannot hold the NUL
 * character or half a surrogate pair, and JSON and YAML encoding recurse once per level of nesting (Go's decoder has
 * a depth limit too). It runs on every write, so it walks the document without allocating; its recursion stops at
 * MAX_DEPTH.
 */
export function unstorableReason(document: unknown, depth = 1): string | undefined {
  if (typeof document === 'string') return stringReason(document);
  if (typeof document !== 'object' || document === null) return undefined;
  if (depth > MAX_DEPTH) return `exceeded max depth of ${MAX_DEPTH}`;
  if (Array.isArray(document)) {
    for (const item of document) {
      const reason = unstorableReason(item, depth + 1);
      if (reason) return reason;
    }
    return undefined;
  }
  for (const key of Object.keys(document)) {
    const reason = stringReason(key) ?? unstorableReason((document as Record<string, unknown>)[key], depth + 1);
    if (reason) return reason;
  }
  return undefined;
}
