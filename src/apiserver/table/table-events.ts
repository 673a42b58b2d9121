import { KubeObject } from '../../apimachinery/meta/kube-object';
import { EventStream, WatchEvent } from '../../watch/watch-events';
import { TableConvertor } from './table-convertor';
import { eventObject } from '../codec/event-sink';

/** The Table an event carries: one row of its object; none for a BOOKMARK, only its resourceVersion. */
function eventTable(event: WatchEvent, convertor: TableConvertor): Record<string, unknown> {
  const object = eventObject(event) as KubeObject;
  if (event.type === 'BOOKMARK') return convertor.list([], { resourceVersion: object.metadata.resourceVersion });
  return convertor.object(object);
}

/**
 * A watch whose objects are sent as Tables (an ERROR keeps its Status). As the apiserver's watch encoder does, only
 * the first Table carries the column definitions; later ones have none (`null`, as Go writes an empty slice), and
 * clients reuse the first ones.
 */
export function tableEvents(events: EventStream, convertor: TableConvertor): EventStream {
  let headersSent = false;
  const table = (event: WatchEvent) => {
    const object = eventTable(event, convertor);
    if (headersSent) object.columnDefinitions = null;
    headersSent = true;
    return object;
  };
  return {
    attach: (sink) =>
      events.attach({
        send: (sent) => sink.send(sent.map((event) => (event.type === 'ERROR' ? event : { type: event.type, object: table(event) }))),
        drained: () => sink.drained(),
        end: () => sink.end(),
      }),
    close: () => events.close(),
  };
}
