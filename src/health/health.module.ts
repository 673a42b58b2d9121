import { Global, Module } from '@nestjs/common';
import { WatchModule } from '../watch/watch.module';
import { HealthChecks } from './health-checks';
import { HealthController } from './health.controller';
import { ShutdownSignal } from './shutdown-signal';

/** /livez, /readyz and /healthz, and the shutdown signal that readiness reports. */
@Global()
@Module({
  imports: [WatchModule],
  controllers: [HealthController],
  providers: [HealthChecks, ShutdownSignal],
  exports: [ShutdownSignal],
})
export class HealthModule {}
