import { KubeObject } from '../../apimachinery/meta/kube-object';
import { EventStream, WatchEvent } from '../../watch/watch-events';
import { TableConvertor } from './table-convertor';

/** The Table an event carries: one row of its object; none for a BOOKMARK, only its resourceVersion. */
function eventTable(event: WatchEvent, convertor: TableConvertor): unknown {
  const object = event.object as KubeObject;
  if (event.type === 'BOOKMARK') return convertor.list([], { resourceVersion: object.metadata.resourceVersion });
  return convertor.object(object);
}

/** A watch whose objects are sent as Tables (an ERROR keeps its Status). */
export function tableEvents(events: EventStream, convertor: TableConvertor): EventStream {
  return {
    attach: (sink) =>
      events.attach({
        send: (event) => sink.send(event.type === 'ERROR' ? event : { type: event.type, object: eventTable(event, convertor) }),
        drained: () => sink.drained(),
        end: () => sink.end(),
      }),
    close: () => events.close(),
  };
}
