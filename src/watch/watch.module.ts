import { Module } from '@nestjs/common';
import { ObjectStorageModule } from '../storage/objects/object-storage.module';
import { ChangeFeed } from './change-feed.service';
import { ChangeHistory } from './change-history';
import { ChangeLogCompactor } from './change-log-compactor';
import { InitializationWaiter } from './initialization-waiter';
import { WatchService } from './watch.service';

/** The change feed of this instance and the watches it serves. */
@Module({
  imports: [ObjectStorageModule],
  providers: [ChangeHistory, ChangeFeed, WatchService, InitializationWaiter, ChangeLogCompactor],
  exports: [WatchService, ChangeFeed, ChangeHistory, InitializationWaiter, ChangeLogCompactor],
})
export class WatchModule {}
