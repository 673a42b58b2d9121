import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ServerChainFilters } from './chain-filters';
import { CloseConnectionsOnShutdown } from './filters/close-connections-on-shutdown.filter';
import { MaxInFlightFilter } from './filters/max-in-flight.filter';
import { CHAIN_FILTERS, HandlerChain } from './handler-chain';
import { SecureServer } from './secure-server';

/**
 * How requests are served: the secure port beside the insecure one the application listens on itself, and the
 * handler chain every request passes on both.
 */
@Module({
  imports: [AuthModule],
  providers: [
    SecureServer,
    MaxInFlightFilter,
    CloseConnectionsOnShutdown,
    { provide: CHAIN_FILTERS, useClass: ServerChainFilters },
    HandlerChain,
  ],
  exports: [SecureServer],
})
export class ServingModule {}
