import { Injectable } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { ResponseFilter } from '../../apiserver/request/request-filter';
import { ShutdownSignal } from '../../health/shutdown-signal';

/**
 * Once shutdown has begun, responses close their connection, so that none lingers idle and keeps the server from
 * stopping. HTTP/2 ends connections with GOAWAY instead (and forbids the header).
 */
@Injectable()
export class CloseConnectionsOnShutdown implements ResponseFilter {
  constructor(private readonly shutdown: ShutdownSignal) {}

  beforeSend(request: FastifyRequest, reply: FastifyReply): void {
    if (this.shutdown.requested && request.raw.httpVersionMajor === 1) reply.header('connection', 'close');
  }
}
