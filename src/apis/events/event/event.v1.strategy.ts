import { nameRules } from '../../../apimachinery/validation/names';
import { KindStrategy } from '../../../registry/kind-definition';
import { EVENTS_V1_FIELD_LABELS } from '../../core/event/event.field-labels';
import { CoreEvent } from '../../core/event/event.schema';
import { EVENT_STRATEGY } from '../../core/event/event.strategy';
import { validateEventCreate, validateEventUpdate } from '../../core/event/event.validation';
import { EVENTS_V1_EVENT } from './event.v1.schema';

/** events.k8s.io/v1 Event: core/v1's strategy over the same stored form, with the stricter rules of the newer API. */
export const EVENTS_V1_EVENT_STRATEGY: KindStrategy = {
  ...EVENT_STRATEGY,
  nameRule: nameRules.dns1123Subdomain,
  shape: EVENTS_V1_EVENT,
  fieldLabels: EVENTS_V1_FIELD_LABELS,
  validate: (event: CoreEvent) => validateEventCreate(event, 'events.k8s.io/v1'),
  validateUpdate: (event: CoreEvent, old: CoreEvent) => validateEventUpdate(event, old, 'events.k8s.io/v1'),
};
