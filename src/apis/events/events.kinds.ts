import { defineKind } from '../../registry/define-kind';
import { KindDefinition, storageKeyOf } from '../../registry/kind-definition';
import { convertedColumns } from '../../registry/table/converted-columns';
import { CORE_EVENTS } from '../core/core.kinds';
import { EVENTS_V1_CONVERSION } from './event/event.v1.conversion';
import { EVENTS_V1_EVENT_STRATEGY } from './event/event.v1.strategy';
import { EVENTS_V1 } from './events.group';

/** events.k8s.io/v1 Events: core/v1's stored Events, converted on the way in and out. */
export const EVENTS_V1_KINDS: KindDefinition[] = [
  defineKind(EVENTS_V1, {
    resource: 'events',
    kind: 'Event',
    namespaced: true,
    shortNames: ['ev'],
    strategy: EVENTS_V1_EVENT_STRATEGY,
    columns: convertedColumns(CORE_EVENTS.columns ?? [], EVENTS_V1_CONVERSION),
    conversion: EVENTS_V1_CONVERSION,
    storedAs: storageKeyOf(CORE_EVENTS),
  }),
];
