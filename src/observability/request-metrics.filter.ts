import { Injectable, Logger } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { RequestFilter } from '../apiserver/request/request-filter';
import { RequestInfo } from '../apiserver/request/request-info';
import { Settings } from '../config/settings';
import { ServerMetrics } from '../metrics/server-metrics';

/** Log levels from the least to the most verbose: request lines are `log` for API requests, `debug` for the rest. */
const LOG_LEVELS = ['error', 'warn', 'log', 'debug', 'verbose'];

/** The metrics of one kind of request (same labels), made once: prom-client checks and hashes labels on every call. */
interface RequestSeries {
  duration: { observe(seconds: number): void };
  byCode: Map<number, { inc(): void }>;
}

/** Resources this server does not serve are not named: clients could invent any number of label values. */
const metricLabels = (info: RequestInfo) => ({
  verb: info.verb,
  group: info.served ? info.group : '',
  version: info.served ? info.version : '',
  resource: info.served ? info.resource : '',
  subresource: info.served ? info.subresource : '',
  scope: info.served ? info.scope : '',
  component: 'apiserver',
});

/**
 * Records every request when its response ends, whoever answered it (a refusal of a later filter too): its count by
 * code and its latency in the metrics, and its log line. Long-running requests (watches) are counted in a gauge while
 * they last and left out of the latency.
 */
@Injectable()
export class RequestMetricsFilter implements RequestFilter {
  private readonly logger = new Logger('Request');
  private readonly series = new Map<string, RequestSeries>();
  private readonly logsApiRequests: boolean;
  private readonly logsOtherRequests: boolean;

  constructor(
    private readonly metrics: ServerMetrics,
    settings: Settings,
  ) {
    const level = LOG_LEVELS.indexOf(settings.LOG_LEVEL);
    this.logsApiRequests = level >= LOG_LEVELS.indexOf('log');
    this.logsOtherRequests = level >= LOG_LEVELS.indexOf('debug');
  }

  filter(request: FastifyRequest, reply: FastifyReply): void {
    const started = process.hrtime.bigint();
    const info = request.requestInfo as RequestInfo;
    if (info.longRunning) this.metrics.longRunningRequests.inc(metricLabels(info));
    reply.raw.once('close', () => {
      if (info.longRunning) this.metrics.longRunningRequests.dec(metricLabels(info));
      this.record(request, reply, info, Number(process.hrtime.bigint() - started) / 1e9);
    });
  }

  private seriesOf(info: RequestInfo): RequestSeries {
    // keyed as labelled: requests for resources this server does not serve share one series per verb
    const key = info.served ? `${info.verb} ${info.group} ${info.version} ${info.resource} ${info.subresource} ${info.scope}` : info.verb;
    let series = this.series.get(key);
    if (!series) {
      series = { duration: this.metrics.requestDuration.labels(metricLabels(info)), byCode: new Map() };
      this.series.set(key, series);
    }
    return series;
  }

  private record(request: FastifyRequest, reply: FastifyReply, info: RequestInfo, seconds: number): void {
    const code = reply.raw.statusCode;
    const series = this.seriesOf(info);
    let count = series.byCode.get(code);
    if (!count) {
      count = this.metrics.requests.labels({ ...metricLabels(info), code: String(code) });
      series.byCode.set(code, count);
    }
    count.inc();
    if (!info.longRunning) series.duration.observe(seconds);
    if (!(info.api ? this.logsApiRequests : this.logsOtherRequests)) return;
    const line = {
      message: 'request',
      verb: info.verb,
      resource: info.resource || undefined,
      subresource: info.subresource || undefined,
      namespace: info.namespace || undefined,
      name: info.name || undefined,
      method: request.method,
      uri: request.url,
      userAgent: request.headers['user-agent'],
      remoteAddr: request.ip,
      user: request.auth?.user.username,
      impersonatedBy: request.auth && request.auth.authenticated !== request.auth.user ? request.auth.authenticated.username : undefined,
      code,
      latencyMs: Math.round(seconds * 1e6) / 1e3,
    };
    // Probes and scrapes come every few seconds: their lines are for debugging only.
    if (info.api) this.logger.log(line);
    else this.logger.debug(line);
  }
}
