import { column, NAME_COLUMN, TableColumn } from '../../../registry/table/table-column';
import { humanDuration } from '../../../registry/table/human-duration';
import { CoreEvent } from './event.schema';

const since = (time: string | null | undefined, now: number) => (time ? humanDuration(now - Date.parse(time)) : '<unknown>');

/** First seen: the first timestamp of an old-style event, else its eventTime. */
const firstSeen = (event: CoreEvent, now: number) => since(event.firstTimestamp ?? event.eventTime, now);

/** Last seen: the series' last observation, else the last timestamp, else the first seen. */
function lastSeen(event: CoreEvent, now: number): string {
  if (event.series) return since(event.series.lastObservedTime, now);
  return event.lastTimestamp ? since(event.lastTimestamp, now) : firstSeen(event, now);
}

/** A singleton event has no count in the new API: it happened once. */
const count = (event: CoreEvent) => (event.series ? (event.series.count ?? 0) : event.count || 1);

function target(event: CoreEvent): string {
  const kind = (event.involvedObject?.kind ?? '').toLowerCase();
  return event.involvedObject?.name ? `${kind}/${event.involvedObject.name}` : kind;
}

function source(event: CoreEvent): string {
  const component = event.source?.component || event.reportingComponent || '';
  const instance = event.source?.host || event.reportingInstance || '';
  return instance ? `${component}, ${instance}` : component;
}

const cell = (read: (event: CoreEvent, now: number) => unknown) => (object: unknown, now: number) => read(object as CoreEvent, now);

const TIMES = [['firstTimestamp'], ['lastTimestamp'], ['eventTime'], ['series']];

/** `kubectl get events` (as upstream's printer): LAST SEEN TYPE REASON OBJECT MESSAGE, and more with `-o wide`. */
export const EVENT_COLUMNS: readonly TableColumn[] = [
  column('Last Seen', 'string', 'Time since the event was last seen.', TIMES, cell(lastSeen)),
  column('Type', 'string', 'Type of the event: Normal or Warning.', [['type']], cell((e) => e.type ?? '')),
  column('Reason', 'string', 'Why the object is in this state.', [['reason']], cell((e) => e.reason ?? '')),
  column('Object', 'string', 'The object the event is about.', [['involvedObject']], cell(target)),
  column('Subobject', 'string', 'The part of the object the event is about.', [['involvedObject']], cell((e) => e.involvedObject?.fieldPath ?? ''), 1),
  column('Source', 'string', 'The component, and its host or instance, that reported the event.', [['source'], ['reportingComponent'], ['reportingInstance']], cell(source), 1),
  column('Message', 'string', 'Human-readable description of the event.', [['message']], cell((e) => (e.message ?? '').trim())),
  column('First Seen', 'string', 'Time since the event was first seen.', TIMES, cell(firstSeen), 1),
  column('Count', 'integer', 'Number of times the event occurred.', [['count'], ['series']], cell(count), 1),
  { ...NAME_COLUMN, priority: 1 },
];
