import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FastifyInstance } from 'fastify';
import { StatusError } from '../apimachinery/errors/status-error';
import { sendStatus } from '../apiserver/http/reply';
import { AuditRecorder } from './audit/audit-recorder';
import { AuthenticationFilter } from './authentication.filter';
import { AuthorizationFilter } from './authorization.filter';
import { ImpersonationFilter } from './impersonation.filter';

/**
 * The filters every request passes before its handler, in upstream's order (DefaultBuildHandlerChain):
 * authentication, audit, impersonation, authorization. Each puts what it learns on the request or refuses it with
 * a Status; handlers never look at identity themselves. A refused authentication is audited too. The hook is added
 * at bootstrap, after the request edge's (metrics, log line, in-flight limits), so that refusals are counted.
 */
@Injectable()
export class RequestFilters implements OnApplicationBootstrap {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly authentication: AuthenticationFilter,
    private readonly audit: AuditRecorder,
    private readonly impersonation: ImpersonationFilter,
    private readonly authorization: AuthorizationFilter,
  ) {}

  onApplicationBootstrap(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.decorateRequest('auth', undefined); // declared, so that every request object has one shape
    fastify.addHook('onRequest', async (request, reply) => {
      let refused: unknown;
      try {
        await this.authentication.filter(request);
      } catch (error) {
        refused = error;
      }
      this.audit.begin(request, reply);
      if (refused === undefined) {
        try {
          await this.impersonation.filter(request);
          await this.authorization.filter(request);
        } catch (error) {
          refused = error;
        }
      }
      if (refused === undefined) return;
      if (!(refused instanceof StatusError)) throw refused;
      sendStatus(request, reply, refused);
      return reply;
    });
  }
}
