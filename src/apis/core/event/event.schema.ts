import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { alwaysWritten, described, pointer, s } from '../../../apimachinery/schema/schema';
import { CORE_V1 } from '../../workloads/pod-template/core-v1';
import { OBJECT_REFERENCE } from '../../workloads/pod-template/references.schema';

export const EVENT_SOURCE = CORE_V1.struct('EventSource', {
  component: [1, s.string, described('Component that reported the event.')],
  host: [2, s.string, described('Node name on which the event was generated.')],
});

export const EVENT_SERIES = CORE_V1.struct('EventSeries', {
  count: [1, s.int32, described('Number of occurrences in the series up to the last heartbeat.')],
  lastObservedTime: [2, s.microTime, described('When the last occurrence of the series was seen before the last heartbeat.')],
});

/** core/v1 Event: the stored form of Events, which events.k8s.io/v1 serves converted. */
export const EVENT = resourceKind(CORE_V1, 'Event', {
  involvedObject: [2, OBJECT_REFERENCE, alwaysWritten, described('The object this event is about.')],
  reason: [3, s.string, described('Why the object is in this state, short and machine-readable (CamelCase).')],
  message: [4, s.string, described('Human-readable description of the status of this operation.')],
  source: [5, EVENT_SOURCE, described('The component reporting this event; new reporters use reportingComponent.')],
  firstTimestamp: [6, s.time, described('When the event was first recorded.')],
  lastTimestamp: [7, s.time, described('When the most recent occurrence of the event was recorded.')],
  count: [8, s.int32, described('Number of times this event has occurred.')],
  type: [9, s.string, described('Type of the event: Normal or Warning.')],
  eventTime: [10, s.microTime, described('When the event was first observed.')],
  series: [11, EVENT_SERIES, pointer, described('Data about the series this event is part of; none for a singleton event.')],
  action: [12, s.string, described('What action was taken or failed regarding the involved object.')],
  related: [13, OBJECT_REFERENCE, pointer, described('Optional secondary object for more complex actions.')],
  reportingComponent: [14, s.string, alwaysWritten, described('Controller that emitted the event, such as kubernetes.io/kubelet.')],
  reportingInstance: [15, s.string, alwaysWritten, described('ID of the controller instance, such as kubelet-xyzf.')],
});

export type CoreEvent = KindObject<typeof EVENT>;
