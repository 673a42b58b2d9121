/**
 * The simple JSONPaths of additionalPrinterColumns and scale subresources (`.spec.replicas`, `.spec.ports[0].name`,
 * `.spec.ports[*].port`, `.metadata.labels['app']`): each step a field name, an index, or `*`.
 */
export type JsonPathStep = { field: string } | { index: number } | { all: true };

const STEP = /^(?:\.([A-Za-z0-9_$-]+)|\[(\d+)\]|\[\*\]|\.\*|\['([^']*)'\]|\["([^"]*)"\])/;

/** The steps of a path; undefined for one this reader cannot follow. */
export function parseJsonPath(path: string): JsonPathStep[] | undefined {
  const text = path.trim().replace(/^\{(.*)\}$/, '$1').replace(/^\$/, '');
  const steps: JsonPathStep[] = [];
  let rest = text;
  while (rest.length > 0) {
    const match = STEP.exec(rest);
    if (!match) return undefined;
    if (match[1] !== undefined) steps.push({ field: match[1] });
    else if (match[2] !== undefined) steps.push({ index: Number(match[2]) });
    else if (match[3] !== undefined || match[4] !== undefined) steps.push({ field: (match[3] ?? match[4]) as string });
    else steps.push({ all: true });
    rest = rest.slice(match[0].length);
  }
  return steps;
}

/** Every value the steps reach in `value`. */
export function evaluateJsonPath(steps: readonly JsonPathStep[], value: unknown): unknown[] {
  let values = [value];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const current of values) {
      if (current === null || typeof current !== 'object') continue;
      if ('all' in step) next.push(...Object.values(current));
      else if ('index' in step) {
        if (Array.isArray(current) && step.index < current.length) next.push(current[step.index]);
      } else if (!Array.isArray(current) && step.field in current) next.push((current as Record<string, unknown>)[step.field]);
    }
    values = next;
  }
  return values;
}
