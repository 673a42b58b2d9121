import { Inject, Injectable } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { apiErrors } from '../apimachinery/errors/status-error';
import { RequestFilter } from '../apiserver/request/request-filter';
import { attributesOf } from './authorization/attributes';
import type { Authorizer } from './authorization/authorizer';
import { AUTHORIZER } from './authorization/authorizer.token';
import { forbidden } from './authorization/forbidden';

/**
 * Authorization of every request (upstream's WithAuthorization), watches included: the insecure port's superuser
 * may do everything; on the secure port the authorizers of --authorization-mode decide, and a request none of them
 * allows is refused with 403 Forbidden.
 */
@Injectable()
export class AuthorizationFilter implements RequestFilter {
  constructor(@Inject(AUTHORIZER) private readonly authorizer: Authorizer) {}

  async filter(request: FastifyRequest): Promise<void> {
    const { auth, requestInfo } = request;
    if (!auth || !requestInfo) throw apiErrors.unauthorized();
    if (!auth.secure) return;
    const attributes = attributesOf(auth.user, requestInfo);
    const { decision, reason } = this.authorizer.authorize(attributes);
    if (decision !== 'allow') throw forbidden(attributes, reason);
  }
}
