import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FastifyInstance } from 'fastify';
import { StatusError } from '../apimachinery/errors/status-error';
import { sendStatus } from '../apiserver/http/reply';
import { AuditRecorder } from './audit/audit-recorder';
import { AuthenticationFilter } from './authentication.filter';
import { AuthorizationFilter } from './authorization.filter';
import { ImpersonationFilter } from './impersonation.filter';
import { InsecureHostFilter } from './insecure-host.filter';

/**
 * The filters every request passes before its handler, in upstream's order (DefaultBuildHandlerChain):
 * authentication, audit, impersonation, authorization; before them, the insecure port's check of the `Host` (as
 * `kubectl proxy` checks it; upstream's chain has none). Each puts what it learns on the request or refuses it with a
 * Status; handlers never look at identity themselves. A request refused by the host check or by authentication is
 * audited too. The hook is added at bootstrap, after the request edge's (metrics, log line, in-flight limits), so
 * that refusals are counted.
 */
@Injectable()
export class RequestFilters implements OnApplicationBootstrap {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly insecureHost: InsecureHostFilter,
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
        this.insecureHost.filter(request);
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
