/**
 * Whether `--controllers` turns a controller on (kube-controller-manager's rule): its name on, `-name` off, the first
 * of them that is listed wins; otherwise on when the list has `*`.
 */
export function isControllerEnabled(name: string, controllers: string): boolean {
  let star = false;
  for (const entry of controllers.split(',')) {
    if (entry === name) return true;
    if (entry === `-${name}`) return false;
    if (entry === '*') star = true;
  }
  return star;
}
