import { Module } from '@nestjs/common';
import { StorageModule } from '../registry/store/storage.module';
import { ChangeFeed } from './change-feed.service';
import { ChangeHistory } from './change-history';
import { ChangeLogCompactor } from './change-log-compactor';
import { InformerFactory } from './informer-factory';
import { InitializationWaiter } from './initialization-waiter';
import { WatchService } from './watch.service';

/** The change feed of this instance, the watches it serves and the informers that follow it. */
@Module({
  imports: [StorageModule],
  providers: [ChangeHistory, ChangeFeed, WatchService, InitializationWaiter, ChangeLogCompactor, InformerFactory],
  exports: [WatchService, ChangeFeed, ChangeHistory, InitializationWaiter, ChangeLogCompactor, InformerFactory],
})
export class WatchModule {}
