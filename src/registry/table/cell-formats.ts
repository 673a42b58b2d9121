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

/** A label selector object in the selector syntax (`app=web,tier in (a,b)`). */
export const formatSelector = (selector: LabelSelector | undefined): string =>
  selector === undefined || isEmptySelector(selector) ? '<none>' : orNone(selectorText(selector));
