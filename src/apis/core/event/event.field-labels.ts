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

/** A core/v1 field's name in events.k8s.io/v1 (upstream's field label conversion for that group). */
const v1Name = (field: string) =>
  field.startsWith('involvedObject.') ? `regarding.${field.slice('involvedObject.'.length)}` : field === 'reportingComponent' ? 'reportingController' : field;

/** The same fields under events.k8s.io/v1's names. */
export const EVENTS_V1_FIELD_LABELS: Readonly<Record<string, FieldLabel>> = Object.fromEntries(
  Object.entries(EVENT_FIELD_LABELS).map(([field, label]) => [v1Name(field), label]),
);
