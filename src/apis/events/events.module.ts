import { Module } from '@nestjs/common';
import { registerApiGroup } from '../../registry/define-kind';
import { EVENTS_V1 } from './events.group';
import { EVENTS_V1_KINDS } from './events.kinds';

/** The events.k8s.io/v1 API group: Events, over the objects core/v1 stores. */
@Module({ providers: [registerApiGroup(EVENTS_V1, EVENTS_V1_KINDS)] })
export class EventsModule {}
