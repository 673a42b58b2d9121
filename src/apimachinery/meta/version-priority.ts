const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/** How a version ranks: GA above beta above alpha, a higher number first; versions of other forms come last. */
function rank(version: string): [number, number, number] {
  const match = KUBE_VERSION.exec(version);
  if (!match) return [0, 0, 0];
  const stability = match[2] === undefined ? 3 : match[2] === 'beta' ? 2 : 1;
  return [stability, Number(match[1]), Number(match[3] ?? 0)];
}

/**
 * Orders versions as the apiserver orders a group's versions in discovery (its first is the preferred one): `v2`,
 * `v1`, `v1beta2`, `v1beta1`, `v1alpha1`, then versions not of the Kubernetes form, alphabetically.
 */
export function byVersionPriority(a: string, b: string): number {
  const [x, y] = [rank(a), rank(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return y[i] - x[i];
  return a < b ? -1 : a > b ? 1 : 0;
}
