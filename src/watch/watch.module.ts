import { Module } from '@nestjs/common';
import { ChangeFeed } from './change-feed.service';
import { ChangeLogCompactor } from './change-log-compactor';
import { InformerFactory } from './informer-factory';
import { InitializationWaiter } from './initialization-waiter';
import { WatchService } from './watch.service';

/** The change feed of this instance, the watches it serves and the informers that follow it. */
@Module({
  providers: [ChangeFeed, WatchService, InitializationWaiter, ChangeLogCompactor, InformerFactory],
  exports: [WatchService, ChangeFeed, InitializationWaiter, ChangeLogCompactor, InformerFactory],
})
export class WatchModule {}
