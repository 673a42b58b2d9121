import { pathSegmentName } from '../../../apimachinery/validation/names';
import { defineStrategy, KindStrategy } from '../../../registry/kind-definition';
import { EVENT_FIELD_LABELS } from './event.field-labels';
import { CoreEvent, EVENT } from './event.schema';
import { validateEventCreate, validateEventUpdate } from './event.validation';

/** What Go always writes of a stored Event, whichever version wrote it. */
function defaultEvent(event: CoreEvent): void {
  event.involvedObject ??= {};
  event.source ??= {};
  event.reportingComponent ??= '';
  event.reportingInstance ??= '';
}

/** core/v1 Event: names are only checked as path segments, updates may change anything, a PUT may create one (as upstream's). */
export const EVENT_STRATEGY: KindStrategy = defineStrategy({
  nameRule: pathSegmentName,
  shape: EVENT,
  generation: 'client',
  createsOnUpdate: true,
  fieldLabels: EVENT_FIELD_LABELS,
  applyDefaults: defaultEvent,
  validate: (event: CoreEvent) => validateEventCreate(event, 'v1'),
  validateUpdate: (event: CoreEvent, old: CoreEvent) => validateEventUpdate(event, old, 'v1'),
});
