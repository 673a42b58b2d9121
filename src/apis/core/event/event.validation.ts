import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { deepEqual } from '../../../apimachinery/meta/deep-equal';
import { dns1123Subdomain, qualifiedName } from '../../../apimachinery/validation/names';
import { CoreEvent } from './event.schema';

/** The version an Event is written through: core/v1 keeps the old rules, events.k8s.io/v1 adds the strict ones. */
export type EventRequestVersion = 'v1' | 'events.k8s.io/v1';

const REPORTING_INSTANCE_MAX = 128;
const ACTION_MAX = 128;
const REASON_MAX = 128;
const NOTE_MAX = 1024;

const atMost = (field: string, value: string | undefined, max: number): FieldError[] =>
  (value ?? '').length > max ? [fieldErrors.invalid(field, '', `can have at most ${max} characters`)] : [];

const requiredText = (field: string, value: string | undefined): FieldError[] => (value ? [] : [fieldErrors.required(field)]);

/** The fields of a new-style event (one with an eventTime); the reporting controller under the request version's name. */
function reportingFields(event: CoreEvent, reportingController: string): FieldError[] {
  return [
    ...requiredText(reportingController, event.reportingComponent),
    ...qualifiedName(event.reportingComponent ?? '').map((message) => fieldErrors.invalid(reportingController, event.reportingComponent ?? '', message)),
    ...requiredText('reportingInstance', event.reportingInstance),
    ...atMost('reportingInstance', event.reportingInstance, REPORTING_INSTANCE_MAX),
    ...requiredText('action', event.action),
    ...atMost('action', event.action, ACTION_MAX),
    ...requiredText('reason', event.reason),
    ...atMost('reason', event.reason, REASON_MAX),
    ...atMost('message', event.message, NOTE_MAX),
  ];
}

/** What every Event must satisfy, whichever version writes it (upstream's legacyValidateEvent). */
function legacyEventErrors(event: CoreEvent, version: EventRequestVersion): FieldError[] {
  const errors: FieldError[] = [];
  const namespace = event.metadata.namespace ?? '';
  const involvedNamespace = event.involvedObject?.namespace ?? '';
  const mismatch = () => fieldErrors.invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace');
  if (!event.eventTime) {
    // an old-style event: its namespace is its object's (or empty or default for a cluster-scoped object)
    if (involvedNamespace ? namespace !== involvedNamespace : namespace !== '' && namespace !== 'default') errors.push(mismatch());
  } else {
    if (!involvedNamespace && namespace !== 'default' && namespace !== 'kube-system') errors.push(mismatch());
    errors.push(...reportingFields(event, version === 'v1' ? 'reportingComponent' : 'reportingController'));
  }
  for (const message of dns1123Subdomain(namespace)) errors.push(fieldErrors.invalid('namespace', namespace, message));
  return errors;
}

function seriesErrors(event: CoreEvent): FieldError[] {
  if (!event.series) return [];
  return [
    ...((event.series.count ?? 0) < 2 ? [fieldErrors.invalid('series.count', '', 'should be at least 2')] : []),
    ...(event.series.lastObservedTime ? [] : [fieldErrors.required('series.lastObservedTime')]),
  ];
}

const unset = (field: string, isSet: boolean): FieldError[] => (isSet ? [fieldErrors.invalid(field, '', 'needs to be unset')] : []);

/** A new Event (upstream's ValidateEventCreate): the stored form, written through `version`. */
export function validateEventCreate(event: CoreEvent, version: EventRequestVersion): FieldError[] {
  const errors = legacyEventErrors(event, version);
  if (version === 'v1') return errors;
  return [
    ...errors,
    ...seriesErrors(event),
    ...(event.eventTime ? [] : [fieldErrors.required('eventTime')]),
    ...(event.type === 'Normal' || event.type === 'Warning' ? [] : [fieldErrors.invalid('type', '', `has invalid value: ${event.type ?? ''}`)]),
    ...unset('firstTimestamp', !!event.firstTimestamp),
    ...unset('lastTimestamp', !!event.lastTimestamp),
    ...unset('count', !!event.count),
    ...unset('source', !!(event.source?.component || event.source?.host)),
  ];
}

/** The fields of an Event that events.k8s.io/v1 never lets change, by their core/v1 names (as upstream reports them). */
const IMMUTABLE = ['involvedObject', 'reason', 'message', 'source', 'firstTimestamp', 'lastTimestamp', 'count', 'type', 'action', 'related', 'reportingComponent', 'reportingInstance'] as const;

const UPDATE_NAMES: Partial<Record<(typeof IMMUTABLE)[number], string>> = { reportingComponent: 'reportingController' };

/** Microseconds are what an eventTime holds: finer differences are a client's rounding, not a change. */
const microseconds = (time: string | null | undefined) => (time ? Date.parse(time) * 1000 + Number((/\.\d{3}(\d{1,3})/.exec(time)?.[1] ?? '0').padEnd(3, '0')) : 0);

/** An update of an Event (upstream's ValidateEventUpdate): events.k8s.io/v1 keeps what the event says immutable. */
export function validateEventUpdate(event: CoreEvent, old: CoreEvent, version: EventRequestVersion): FieldError[] {
  const errors = legacyEventErrors(event, version);
  if (version === 'v1') return errors;
  if (!deepEqual(event.series, old.series)) errors.push(...seriesErrors(event));
  for (const field of IMMUTABLE) {
    if (!deepEqual(event[field] ?? null, old[field] ?? null)) errors.push(fieldErrors.invalid(UPDATE_NAMES[field] ?? field, event[field] ?? null, 'field is immutable'));
  }
  if (microseconds(event.eventTime) !== microseconds(old.eventTime)) errors.push(fieldErrors.invalid('eventTime', event.eventTime ?? null, 'field is immutable'));
  return errors;
}
