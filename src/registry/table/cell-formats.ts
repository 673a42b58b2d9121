import { isEmptySelector, LabelSelector, selectorText } from '../../apimachinery/selectors/label-selector-object';

/** `<none>` for nothing, as kubectl's printers write an empty cell of labels or selectors. */
const orNone = (text: string) => (text === '' ? '<none>' : text);

/** A label map as `a=b,c=d`, sorted by key. */
export const formatLabels = (labels: Record<string, string> | undefined): string =>
  orNone(
    Object.keys(labels ?? {})
      .sort()
      .map((key) => `${key}=${(labels as Record<string, string>)[key]}`)
      .join(','),
  );

/** A label selector object in the selector syntax (`app=web,tier in (a,b)`); one of labels alone as a label map. */
export function formatSelector(selector: LabelSelector | undefined): string {
  if (selector === undefined || isEmptySelector(selector)) return '<none>';
  if (!selector.matchExpressions?.length) return formatLabels(selector.matchLabels);
  return orNone(selectorText(selector));
}
