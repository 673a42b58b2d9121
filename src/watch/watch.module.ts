import { Module } from '@nestjs/common';
import { ChangeFeed } from './change-feed.service';
import { ChangeLogCompactor } from './change-log-compactor';
import { InitializationWaiter } from './initialization-waiter';
import { WatchService } from './watch.service';

/** The change feed of this instance and the watches it serves. */
@Module({
  providers: [ChangeFeed, WatchService, InitializationWaiter, ChangeLogCompactor],
  exports: [WatchService, ChangeFeed, InitializationWaiter, ChangeLogCompactor],
})
export class WatchModule {}
