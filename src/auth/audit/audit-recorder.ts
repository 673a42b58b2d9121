import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { RequestFilter, ResponseFilter } from '../../apiserver/request/request-filter';
import { randomUUID } from 'node:crypto';
import { Settings } from '../../config/settings';
import { ServerMetrics } from '../../metrics/server-metrics';
import { AuditEventStore } from '../../storage/audit-events';
import { UserInfo } from '../../apimachinery/authentication/user-info';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import '../../apiserver/request/request-object-observer';
import { AuditDecision, AuditPolicy, AuditStage, readPolicyFile } from './audit-policy';
import { BatchBuffer } from './batch-buffer';
import { LogFileSink } from './log-file.sink';

/** An audit.k8s.io/v1 Event. */
export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: string;
  auditID: string;
  stage: AuditStage;
  requestURI: string;
  verb: string;
  user: UserInfo | Record<string, never>;
  impersonatedUser?: UserInfo;
  sourceIPs: string[];
  userAgent?: string;
  objectRef?: Record<string, string>;
  responseStatus?: Record<string, unknown>;
  requestObject?: unknown;
  responseObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
}

/** An event serialized once for every sink, with the time that places it in its day's partition. */
export interface SerializedEvent {
  json: string;
  stageTimestamp: string;
}

interface RequestAudit {
  event: AuditEvent;
  decision: AuditDecision;
  /** the response body, kept when the level asks for it or the answer is an error Status */
  responseBody?: unknown;
}

declare module 'fastify' {
  interface FastifyRequest {
    audit?: RequestAudit;
  }
}

/**
 * How long a sink's first waiting event waits for more: large batches cost PostgreSQL and the server less per event
 * than frequent small ones (bench:auth), and a second is well within what an operator waiting for an event notices.
 */
const BATCH_MAX_WAIT_MS = 1000;


function json(body: unknown): unknown {
  if (!Buffer.isBuffer(body) && typeof body !== 'string') return undefined;
  try {
    return JSON.parse(body.toString());
  } catch {
    return undefined;
  }
}

/** Fills what the path did not name of an objectRef from the request's object, as upstream's LogRequestObject. */
function completeObjectRef(ref: Record<string, string>, object: KubeObject): void {
  const { namespace, name, uid, resourceVersion } = object.metadata ?? {};
  if (!ref.namespace && namespace) ref.namespace = namespace;
  if (!ref.name && name) ref.name = name;
  if (!ref.uid && uid) ref.uid = uid;
  if (!ref.resourceVersion && resourceVersion) ref.resourceVersion = resourceVersion;
}

/** Calls `started` once the response's status and headers are set (upstream's audit response writer). */
function onHeaders(response: FastifyReply['raw'], started: () => void): void {
  const writeHead = response.writeHead;
  response.writeHead = function (this: typeof response, ...args: Parameters<typeof writeHead>) {
    response.writeHead = writeHead;
    const written = writeHead.apply(this, args);
    started();
    return written;
  } as typeof writeHead;
}

/**
 * Audits requests as --audit-policy-file says (upstream's WithAudit): an event at RequestReceived (once the user is
 * known) and at ResponseComplete, with the request and response bodies at the Request and RequestResponse levels.
 * Events go to the log file and the audit_events table through bounded buffers, written in batches off the request
 * path; what does not fit is dropped and counted (apiserver_audit_error_total).
 */
@Injectable()
export class AuditRecorder implements RequestFilter, ResponseFilter, BeforeApplicationShutdown {
  private readonly policy?: AuditPolicy;
  private readonly buffers: BatchBuffer<SerializedEvent>[] = [];
  private clock = { ms: 0, text: '' };
  private readonly closers: (() => Promise<void>)[] = [];

  constructor(
    private readonly metrics: ServerMetrics,
    auditEvents: AuditEventStore,
    settings: Settings,
  ) {
    if (!settings.AUDIT_POLICY_FILE) return;
    this.policy = readPolicyFile(settings.AUDIT_POLICY_FILE);
    const limits = { maxSize: settings.AUDIT_LOG_BATCH_MAX_SIZE, maxWaitMs: BATCH_MAX_WAIT_MS };
    const buffer = (plugin: string, write: (events: SerializedEvent[]) => Promise<void>) =>
      new BatchBuffer(plugin, settings.AUDIT_LOG_BATCH_BUFFER_SIZE, limits, write, (count) => metrics.auditErrors.inc({ plugin }, count));
    if (settings.AUDIT_LOG_PATH) {
      const file = new LogFileSink(settings.AUDIT_LOG_PATH, {
        maxSizeMb: settings.AUDIT_LOG_MAXSIZE,
        maxBackups: settings.AUDIT_LOG_MAXBACKUP,
        maxAgeDays: settings.AUDIT_LOG_MAXAGE,
      });
      this.buffers.push(buffer('log', (events) => file.write(events)));
      this.closers.push(() => file.close());
    }
    if (settings.AUDIT_DATABASE) {
      this.buffers.push(buffer('database', (events) => auditEvents.write(events)));
    }
  }

  /** Keeps the response body when the level asks for it or the answer is an error Status. */
  beforeSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
    const audit = request.audit;
    if (audit && (audit.decision.level === 'RequestResponse' || reply.statusCode >= 400)) audit.responseBody = json(payload);
  }

  /** Starts the request's audit, once authentication has run (its user may be unknown: a refused authentication). */
  filter(request: FastifyRequest, reply: FastifyReply): void {
    const info = request.requestInfo;
    if (!this.policy || !info) return;
    const user = request.auth?.authenticated;
    const decision = this.policy.decide(user, info);
    if (decision.level === 'None') return;
    const received = this.timestamp();
    const event: AuditEvent = {
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: decision.level,
      auditID: randomUUID(),
      stage: 'RequestReceived',
      requestURI: request.url,
      verb: info.apiVerb,
      user: user ?? {},
      sourceIPs: [request.ip],
      userAgent: request.headers['user-agent'],
      requestReceivedTimestamp: received,
      stageTimestamp: received,
    };
    if (info.resource) {
      const ref: Record<string, string> = { resource: info.resource };
      if (info.namespace) ref.namespace = info.namespace;
      if (info.name) ref.name = info.name;
      if (info.group) ref.apiGroup = info.group;
      ref.apiVersion = info.version;
      if (info.subresource) ref.subresource = info.subresource;
      event.objectRef = ref;
      request.observeRequestObject = (object) => completeObjectRef(ref, object);
    }
    request.audit = { event, decision };
    reply.raw.setHeader('audit-id', event.auditID); // on the raw response, so that streamed (hijacked) answers carry it too
    if (!decision.omitStages.has('RequestReceived')) this.emit(event);
    if (info.longRunning && !decision.omitStages.has('ResponseStarted')) {
      onHeaders(reply.raw, () => this.emitStage(request, reply, 'ResponseStarted'));
    }
    reply.raw.once('close', () => this.emitStage(request, reply, 'ResponseComplete'));
  }

  /** ResponseStarted (the headers of a long-running response) or ResponseComplete. */
  private emitStage(request: FastifyRequest, reply: FastifyReply, stage: 'ResponseStarted' | 'ResponseComplete'): void {
    const audit = request.audit as RequestAudit;
    if (audit.decision.omitStages.has(stage)) return;
    // an earlier stage's event is already serialized: its object becomes this stage's event
    const event = audit.event;
    event.stage = stage;
    event.stageTimestamp = this.timestamp();
    const auth = request.auth;
    if (auth && auth.user !== auth.authenticated) event.impersonatedUser = auth.user;
    const code = reply.raw.statusCode;
    const status = audit.responseBody as { kind?: string; status?: string; message?: string; reason?: string } | undefined;
    event.responseStatus =
      code >= 400 && status?.kind === 'Status'
        ? { metadata: {}, status: status.status, message: status.message, reason: status.reason, code }
        : { metadata: {}, code };
    if (audit.decision.level !== 'Metadata') event.requestObject = json(request.body);
    if (audit.decision.level === 'RequestResponse' && stage === 'ResponseComplete') event.responseObject = audit.responseBody;
    this.emit(event);
  }

  /** RFC 3339 with microseconds, as the apiserver writes audit timestamps; formatted once a millisecond. */
  private timestamp(): string {
    const now = Date.now();
    if (now !== this.clock.ms) this.clock = { ms: now, text: new Date(now).toISOString().replace('Z', '000Z') };
    return this.clock.text;
  }

  private emit(event: AuditEvent): void {
    this.metrics.auditEvents.inc();
    const serialized = { json: JSON.stringify(event), stageTimestamp: event.stageTimestamp };
    for (const buffer of this.buffers) buffer.push(serialized);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.buffers.map((buffer) => buffer.flush()));
    await Promise.all(this.closers.map((close) => close()));
  }
}
