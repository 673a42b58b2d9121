import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ObjectStore } from '../storage/objects/object-store';
import { ChangeFeed } from './change-feed.service';
import { ChangeHistory } from '../storage/changes/change-history';
import { InformedResource, SharedInformer } from './informer';

/**
 * The informers of this instance (upstream's shared informer factory): one per resource and namespace, made when
 * first asked for and shared by every later asker, so that one cache and one feed subscription serve them all.
 * Each asker adds its handlers and starts it (a second start changes nothing); all stop when the server stops.
 */
@Injectable()
export class InformerFactory implements OnApplicationShutdown {
  private readonly informers = new Map<string, SharedInformer>();

  constructor(
    private readonly feed: ChangeFeed,
    private readonly history: ChangeHistory,
    private readonly store: ObjectStore,
  ) {}

  informerFor({ group, resource, namespace }: InformedResource): SharedInformer {
    const key = JSON.stringify([group, resource, namespace ?? null]);
    let informer = this.informers.get(key);
    if (!informer) this.informers.set(key, (informer = new SharedInformer({ group, resource, namespace }, this.feed, this.history, this.store)));
    return informer;
  }

  onApplicationShutdown(): void {
    for (const informer of this.informers.values()) informer.stop();
  }
}
