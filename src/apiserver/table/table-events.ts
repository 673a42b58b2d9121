import { KubeObject } from '../../apimachinery/meta/kube-object';
import { EventStream } from '../../watch/watch-events';
import { TableConvertor } from './table-convertor';

/** A watch whose objects are sent as Tables of one row each (an ERROR keeps its Status). */
export function tableEvents(events: EventStream, convertor: TableConvertor): EventStream {
  return {
    attach: (sink) =>
      events.attach({
        send: (event) => sink.send(event.type === 'ERROR' ? event : { type: event.type, object: convertor.object(event.object as KubeObject) }),
        end: () => sink.end(),
      }),
    close: () => events.close(),
  };
}
