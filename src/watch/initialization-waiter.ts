import { Injectable } from '@nestjs/common';
import { apiErrors, StatusError } from '../apimachinery/errors/status-error';
import { KubeObject } from '../apimachinery/meta/kube-object';
import { KindDefinition, storageKeyOf } from '../registry/kind-definition';
import { ObjectStore } from '../storage/objects/object-store';
import { Change, resourceKey } from '../storage/changes/change';
import { ChangeFeed } from './change-feed.service';

type Outcome = { object: KubeObject } | { error: StatusError };

/** What a change means for a create that waits: undefined while initializers are still pending. */
function outcomeOf(object: KubeObject | undefined): Outcome | undefined {
  if (!object) return { error: apiErrors.internal('object deleted while waiting for creation') };
  const initializers = object.metadata.initializers;
  if (!initializers) return { object };
  const result = initializers.result as { message?: string; reason?: string; code?: number } | undefined;
  if (result) return { error: new StatusError(result.code || 500, result.reason as never, result.message ?? 'initialization failed') };
  return undefined;
}

/**
 * Makes a create of an object with pending initializers wait until they are done (1.7's alpha initializers): it answers
 * with the initialized object, or with the Status an initializer recorded as its result (the object is then
 * deleted), or 504 after the timeout.
 */
@Injectable()
export class InitializationWaiter {
  constructor(
    private readonly feed: ChangeFeed,
    private readonly store: ObjectStore,
  ) {}

  async wait(def: KindDefinition, created: KubeObject, timeoutMs: number): Promise<KubeObject> {
    const stored = storageKeyOf(def);
    const key = { ...stored, namespace: created.metadata.namespace ?? '', name: created.metadata.name as string };
    const uid = created.metadata.uid;
    let settle: (outcome: Outcome) => void = () => undefined;
    const settled = new Promise<Outcome>((resolve) => (settle = resolve));
    const subscriber = {
      key: resourceKey(stored.group, stored.resource),
      deliver: (change: Change) => {
        if (change.namespace !== key.namespace || change.name !== key.name || change.object.metadata.uid !== uid) return;
        const object = { ...change.object, metadata: { ...change.object.metadata, resourceVersion: change.resourceVersion.toString() } };
        // A deletion ends the wait: with the initializer's result if one was recorded, as a failure otherwise.
        const deletedWithoutResult = change.type === 'DELETED' && !change.object.metadata.initializers?.result;
        const outcome = outcomeOf(deletedWithoutResult ? undefined : object);
        if (outcome) settle(outcome);
      },
    };
    this.feed.subscribe(subscriber);
    const timer = setTimeout(() => settle({ error: new StatusError(504, 'Timeout', 'Timeout: request did not complete within allowed duration', {}) }), timeoutMs);
    try {
      const current = await this.store.get(key);
      const now = current?.metadata.uid === uid ? outcomeOf(current) : outcomeOf(undefined);
      if (now) settle(now);
      const outcome = await settled;
      if ('object' in outcome) return outcome.object;
      if (outcome.error.code !== 504) await this.removeRejected(key, uid);
      throw outcome.error;
    } finally {
      clearTimeout(timer);
      this.feed.unsubscribe(subscriber);
    }
  }

  private async removeRejected(key: Parameters<ObjectStore['get']>[0], uid: string | undefined): Promise<void> {
    const current = await this.store.get(key);
    if (current && current.metadata.uid === uid) await this.store.delete(key, current.metadata.resourceVersion as string);
  }
}
