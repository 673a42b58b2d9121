import { COMMON_FIELD_LABELS, FieldLabel } from '../../../apimachinery/selectors/field-labels';

const text = (...path: string[]): FieldLabel => ({ path, absent: '' });

const REFERENCE_FIELDS = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'];

/** `source` is the old reporter's component, or else the new one's (upstream's ToSelectableFields). */
const SOURCE: FieldLabel = { path: ['source', 'component'], absent: '', orElse: ['reportingComponent'] };

/** The fields a core/v1 Event's fieldSelector may name (`kubectl get events --field-selector involvedObject.name=web`). */
export const EVENT_FIELD_LABELS: Readonly<Record<string, FieldLabel>> = {
  ...COMMON_FIELD_LABELS,
  ...Object.fromEntries(REFERENCE_FIELDS.map((field) => [`involvedObject.${field}`, text('involvedObject', field)])),
  reason: text('reason'),
  reportingComponent: text('reportingComponent'),
  source: SOURCE,
  type: text('type'),
};

/** The same fields under events.k8s.io/v1's names (upstream's field label conversion for that group). */
export const EVENTS_V1_FIELD_LABELS: Readonly<Record<string, FieldLabel>> = {
  ...COMMON_FIELD_LABELS,
  ...Object.fromEntries(REFERENCE_FIELDS.map((field) => [`regarding.${field}`, text('involvedObject', field)])),
  reason: text('reason'),
  reportingController: text('reportingComponent'),
  source: SOURCE,
  type: text('type'),
};
