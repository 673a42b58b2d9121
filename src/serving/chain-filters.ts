import { Injectable } from '@nestjs/common';
import { RequestInfoFilter } from '../apiserver/request/request-info.filter';
import { AuditRecorder } from '../auth/audit/audit-recorder';
import { AuthenticationFilter } from '../auth/authentication.filter';
import { AuthorizationFilter } from '../auth/authorization.filter';
import { ImpersonationFilter } from '../auth/impersonation.filter';
import { InsecureHostFilter } from '../auth/insecure-host.filter';
import { RequestMetricsFilter } from '../observability/request-metrics.filter';
import { CloseConnectionsOnShutdown } from './filters/close-connections-on-shutdown.filter';
import { MaxInFlightFilter } from './filters/max-in-flight.filter';
import { ChainFilters } from './handler-chain';

/** The server's filters, gathered from the modules that provide them, for the handler chain to put in order. */
@Injectable()
export class ServerChainFilters implements ChainFilters {
  constructor(
    readonly requestInfo: RequestInfoFilter,
    readonly requestMetrics: RequestMetricsFilter,
    readonly maxInFlight: MaxInFlightFilter,
    readonly insecureHost: InsecureHostFilter,
    readonly authentication: AuthenticationFilter,
    readonly audit: AuditRecorder,
    readonly impersonation: ImpersonationFilter,
    readonly authorization: AuthorizationFilter,
    readonly closeConnectionsOnShutdown: CloseConnectionsOnShutdown,
  ) {}
}
