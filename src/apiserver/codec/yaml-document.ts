import { load } from 'js-yaml';

/** Nodes a document may expand to whatever its size, and per character of its text beyond that. */
const MIN_EXPANDED_NODES = 400_000;
const EXPANDED_NODES_PER_CHARACTER = 100;

/**
 * A YAML body as a JSON value. js-yaml resolves an alias to the anchored value itself, so a few lines of nested
 * aliases (an alias bomb) make a document of billions of nodes for whatever walks it next; such a document is refused
 * as go-yaml refuses "excessive aliasing". The count walks the document once, without recursion, and stops at the
 * budget.
 */
export function loadYamlDocument(text: string): unknown {
  const document = load(text, { json: true });
  let budget = Math.max(MIN_EXPANDED_NODES, text.length * EXPANDED_NODES_PER_CHARACTER);
  const pending: unknown[] = [document];
  while (pending.length > 0) {
    const value = pending.pop();
    if (--budget < 0) throw new Error('document contains excessive aliasing');
    if (typeof value === 'object' && value !== null) for (const child of Array.isArray(value) ? value : Object.values(value)) pending.push(child);
  }
  return document;
}
