import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Gauge } from 'prom-client';
import { apiErrors } from '../apimachinery/errors/status-error';
import { sendStatus } from '../apiserver/http/reply';
import { KindRegistry } from '../registry/kind-registry';
import { Query } from '../apimachinery/parameters/query';
import { RequestInfo, requestInfo } from '../apiserver/request/request-info';
import { Settings } from '../config/settings';
import { ShutdownSignal } from '../health/shutdown-signal';
import { ServerMetrics } from '../metrics/server-metrics';

type RequestKind = 'readOnly' | 'mutating';

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
 * The edge every request passes: it counts the request and its latency in the metrics, writes its log line when the
 * response ends, and holds non-watch API requests to the in-flight limits (429 beyond them, as the apiserver). Once
 * shutdown has begun, responses close their connection, so that none lingers idle and keeps the server from stopping.
 */
@Injectable()
export class RequestObserver implements OnModuleInit {
  private readonly logger = new Logger('Request');
  private readonly inflight: Record<RequestKind, number> = { readOnly: 0, mutating: 0 };
  private readonly limits: Record<RequestKind, number>;
  private readonly inflightGauges: Record<RequestKind, Gauge.Internal<string>>;
  private readonly series = new Map<string, RequestSeries>();
  private readonly logsApiRequests: boolean;
  private readonly logsOtherRequests: boolean;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly kinds: KindRegistry,
    private readonly metrics: ServerMetrics,
    private readonly shutdown: ShutdownSignal,
    settings: Settings,
  ) {
    this.limits = { readOnly: settings.MAX_REQUESTS_INFLIGHT, mutating: settings.MAX_MUTATING_REQUESTS_INFLIGHT };
    const gauge = (kind: RequestKind) => metrics.inflightRequests.labels({ request_kind: kind });
    this.inflightGauges = { readOnly: gauge('readOnly'), mutating: gauge('mutating') };
    const level = LOG_LEVELS.indexOf(settings.LOG_LEVEL);
    this.logsApiRequests = level >= LOG_LEVELS.indexOf('log');
    this.logsOtherRequests = level >= LOG_LEVELS.indexOf('debug');
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.decorateRequest('requestInfo', undefined); // declared, so that every request object has one shape
    fastify.addHook('onRequest', async (request, reply) => {
      const started = process.hrtime.bigint();
      const info = requestInfo(request.method, request.url, request.query as Query, this.kinds);
      request.requestInfo = info;
      const kind: RequestKind | undefined = info.api && !info.longRunning ? (info.mutating ? 'mutating' : 'readOnly') : undefined;
      const admitted = kind === undefined || this.limits[kind] === 0 || this.inflight[kind] < this.limits[kind];
      if (kind && admitted) this.changeInflight(kind, 1);
      if (info.longRunning) this.metrics.longRunningRequests.inc(metricLabels(info));
      reply.raw.once('close', () => {
        if (kind && admitted) this.changeInflight(kind, -1);
        if (info.longRunning) this.metrics.longRunningRequests.dec(metricLabels(info));
        this.record(request, reply, info, Number(process.hrtime.bigint() - started) / 1e9);
      });
      if (!admitted) {
        sendStatus(request, reply, apiErrors.tooManyRequests());
        return reply;
      }
    });
    fastify.addHook('onSend', async (request, reply, payload) => {
      // HTTP/2 ends connections with GOAWAY instead (and forbids the header)
      if (this.shutdown.requested && request.raw.httpVersionMajor === 1) reply.header('connection', 'close');
      return payload;
    });
  }

  private changeInflight(kind: RequestKind, by: number): void {
    this.inflight[kind] += by;
    this.inflightGauges[kind].set(this.inflight[kind]);
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
