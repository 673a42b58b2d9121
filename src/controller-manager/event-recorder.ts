import { Injectable, Logger } from '@nestjs/common';
import { hrtime } from 'node:process';
import { KubeObject, nowTimestamp } from '../apimachinery/meta/kube-object';
import { CORE_EVENTS } from '../apis/core/core.kinds';
import { GenericRegistry } from '../registry/store/generic-registry';

/** What an event is about: the object, and the apiVersion its controller knows it by. */
export interface EventSubject {
  object: KubeObject;
  apiVersion: string;
  kind: string;
}

/**
 * client-go's event recorder for the controllers: each event a core/v1 Event in the object's namespace, named after
 * the object and the time in nanoseconds as hex, from `component`. Recording is best effort, as upstream's: a failed
 * write is logged and the controller goes on.
 */
@Injectable()
export class EventRecorder {
  private readonly logger = new Logger('EventRecorder');

  constructor(private readonly registry: GenericRegistry) {}

  async record(component: string, { object, apiVersion, kind }: EventSubject, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    const { name, namespace, uid, resourceVersion } = object.metadata;
    const nanos = BigInt(Date.now()) * 1_000_000n + (hrtime.bigint() % 1_000_000n);
    const now = nowTimestamp();
    const event: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${name}.${nanos.toString(16)}`, namespace: namespace || 'default' },
      involvedObject: { kind, namespace, name, uid, apiVersion, resourceVersion },
      reason,
      message,
      source: { component },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      type,
      reportingComponent: component,
      reportingInstance: '',
    };
    await this.registry.create(CORE_EVENTS, event).catch((error: Error) => this.logger.warn(`event ${reason} on ${namespace}/${name}: ${error.message}`));
  }
}
