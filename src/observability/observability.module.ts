import { Global, Module } from '@nestjs/common';
import { WatchModule } from '../watch/watch.module';
import { MetricsController } from './metrics.controller';
import { ServerMetrics } from '../metrics/server-metrics';
import { RequestMetricsFilter } from './request-metrics.filter';
import { StateGauges } from './state-gauges';

/** Metrics at /metrics, and the filter that counts and logs every request. */
@Global()
@Module({
  imports: [WatchModule],
  controllers: [MetricsController],
  providers: [ServerMetrics, StateGauges, RequestMetricsFilter],
  exports: [ServerMetrics, RequestMetricsFilter],
})
export class ObservabilityModule {}
