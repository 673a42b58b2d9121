import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { alwaysWritten, described, pointer, s } from '../../../apimachinery/schema/schema';
import { EVENT_SOURCE } from '../../core/event/event.schema';
import { OBJECT_REFERENCE } from '../../workloads/pod-template/references.schema';
import { EVENTS_V1_TYPES } from '../events.group';

const EVENT_SERIES = EVENTS_V1_TYPES.struct('EventSeries', {
  count: [1, s.int32, alwaysWritten, described('Number of occurrences in the series up to the last heartbeat.')],
  lastObservedTime: [2, s.microTime, alwaysWritten, described('When the last occurrence of the series was seen before the last heartbeat.')],
});

/** events.k8s.io/v1 Event: core/v1's Events with the newer names (stored as core/v1, see event.v1.conversion.ts). */
export const EVENTS_V1_EVENT = resourceKind(EVENTS_V1_TYPES, 'Event', {
  eventTime: [2, s.microTime, alwaysWritten, described('When the event was first observed.')],
  series: [3, EVENT_SERIES, pointer, described('Data about the series this event is part of; none for a singleton event.')],
  reportingController: [4, s.string, described('Controller that emitted the event, such as kubernetes.io/kubelet.')],
  reportingInstance: [5, s.string, described('ID of the controller instance, such as kubelet-xyzf.')],
  action: [6, s.string, described('What action was taken or failed regarding the regarding object.')],
  reason: [7, s.string, described('Why the action was taken, short and machine-readable.')],
  regarding: [8, OBJECT_REFERENCE, described('The object this event is about.')],
  related: [9, OBJECT_REFERENCE, pointer, described('Optional secondary object for more complex actions.')],
  note: [10, s.string, described('Human-readable description of the status of this operation.')],
  type: [11, s.string, described('Type of the event: Normal or Warning.')],
  deprecatedSource: [12, EVENT_SOURCE, described('The component reporting this event (core/v1 source).')],
  deprecatedFirstTimestamp: [13, s.time, described('When the event was first recorded (core/v1 firstTimestamp).')],
  deprecatedLastTimestamp: [14, s.time, described('When the event was last recorded (core/v1 lastTimestamp).')],
  deprecatedCount: [15, s.int32, described('Number of times the event has occurred (core/v1 count).')],
});

export type EventsV1Event = KindObject<typeof EVENTS_V1_EVENT>;
