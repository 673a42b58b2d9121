import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { BODY_TYPES } from '../codec/media-types';
import { apiErrors, StatusError } from '../../apimachinery/errors/status-error';
import { databaseOutageCause, WriteOutcomeUnknown } from '../../storage/database/database-errors';
import { parsePath } from '../request/resource-path';
import { sendStatus } from './reply';

const BODY_LIMIT_CODE = 'FST_ERR_CTP_BODY_TOO_LARGE';

/** `deployments.extensions` for a request to a resource path, for the storage-unavailable message. */
function resourceOf(request: FastifyRequest): { group: string; kind: string } {
  const parsed = parsePath(request.url.split('?')[0]);
  return parsed.type === 'resource' ? { group: parsed.resource.group, kind: parsed.resource.resource } : { group: '', kind: 'resource' };
}

/** Turns a thrown error into a Status error for the failure it stands for. */
export function toStatusError(error: unknown, bodyLimit: number, request: FastifyRequest): StatusError {
  if (error instanceof StatusError) return error;
  // The database unreachable or failing over: retryable, with Retry-After; a write of unknown outcome: 504.
  if (databaseOutageCause(error) !== undefined) return apiErrors.storageUnavailable(request.method, resourceOf(request), 1);
  if (error instanceof WriteOutcomeUnknown) return apiErrors.writeOutcomeUnknown(request.method, resourceOf(request));
  const code = (error as { code?: string }).code;
  const statusCode = error instanceof HttpException ? error.getStatus() : (error as { statusCode?: number }).statusCode;
  if (code === BODY_LIMIT_CODE || statusCode === 413) return apiErrors.entityTooLarge(bodyLimit);
  if (statusCode === 404) return apiErrors.pathNotFound();
  if (statusCode === 405) return apiErrors.methodNotAllowed();
  if (statusCode === 415) return apiErrors.unsupportedMediaType(BODY_TYPES);
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    return apiErrors.badRequest((error as Error).message);
  }
  return apiErrors.internal((error as Error)?.message ?? String(error));
}

/** What a 5xx answer's log line says caused it: the database's error code and message, or the error's own. */
function causeOf(error: unknown): string {
  if (error instanceof WriteOutcomeUnknown) return error.message;
  return databaseOutageCause(error) ?? (error as Error)?.message ?? String(error);
}

/** Every failure leaves as a Kubernetes Status with the matching HTTP code; every 5xx is logged with its cause. */
@Catch()
export class StatusExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly bodyLimit: number) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    this.send(error, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }

  send(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
    const status = toStatusError(error, this.bodyLimit, request);
    if (status.reason === 'InternalError') this.logger.error(`${request.method} ${request.url}: ${(error as Error)?.stack ?? String(error)}`);
    else if (status.code >= 500) this.logger.warn({ message: `${request.method} ${request.url}: ${status.code}${status.reason ? ` ${status.reason}` : ''}`, cause: causeOf(error) });
    if (reply.sent || reply.raw.headersSent) {
      reply.raw.destroy();
      return;
    }
    sendStatus(request, reply, status);
  }
}
