import { Global, Module } from '@nestjs/common';
import { GcModule } from '../gc/gc.module';
import { WatchModule } from '../watch/watch.module';
import { MetricsController } from './metrics.controller';
import { RequestObserver } from './request-observer';
import { ServerMetrics } from '../metrics/server-metrics';
import { StateGauges } from './state-gauges';

/** Metrics at /metrics, and the request edge that counts, logs and limits requests. */
@Global()
@Module({
  imports: [WatchModule, GcModule],
  controllers: [MetricsController],
  providers: [ServerMetrics, StateGauges, RequestObserver],
  exports: [ServerMetrics],
})
export class ObservabilityModule {}
