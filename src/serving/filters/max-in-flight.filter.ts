import { Injectable } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Gauge } from 'prom-client';
import { apiErrors } from '../../apimachinery/errors/status-error';
import { RequestFilter } from '../../apiserver/request/request-filter';
import { RequestInfo } from '../../apiserver/request/request-info';
import { Settings } from '../../config/settings';
import { ServerMetrics } from '../../metrics/server-metrics';

type RequestKind = 'readOnly' | 'mutating';

/**
 * Holds API requests to --max-requests-inflight (reads) and --max-mutating-requests-inflight (writes), as upstream's
 * WithMaxInFlightLimit: beyond them a request is refused with 429 and Retry-After. Long-running requests (watches)
 * and paths outside /api and /apis are not limited, nor is a kind whose limit is 0.
 */
@Injectable()
export class MaxInFlightFilter implements RequestFilter {
  private readonly inflight: Record<RequestKind, number> = { readOnly: 0, mutating: 0 };
  private readonly limits: Record<RequestKind, number>;
  private readonly gauges: Record<RequestKind, Gauge.Internal<string>>;

  constructor(metrics: ServerMetrics, settings: Settings) {
    this.limits = { readOnly: settings.MAX_REQUESTS_INFLIGHT, mutating: settings.MAX_MUTATING_REQUESTS_INFLIGHT };
    const gauge = (kind: RequestKind) => metrics.inflightRequests.labels({ request_kind: kind });
    this.gauges = { readOnly: gauge('readOnly'), mutating: gauge('mutating') };
  }

  filter(request: FastifyRequest, reply: FastifyReply): void {
    const info = request.requestInfo as RequestInfo;
    if (!info.api || info.longRunning) return;
    const kind: RequestKind = info.mutating ? 'mutating' : 'readOnly';
    if (this.limits[kind] !== 0 && this.inflight[kind] >= this.limits[kind]) throw apiErrors.tooManyRequests();
    this.change(kind, 1);
    reply.raw.once('close', () => this.change(kind, -1));
  }

  private change(kind: RequestKind, by: number): void {
    this.inflight[kind] += by;
    this.gauges[kind].set(this.inflight[kind]);
  }
}
