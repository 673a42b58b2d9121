import { Logger } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { apiErrors } from '../apimachinery/errors/status-error';
import { RequestFilter } from '../apiserver/request/request-filter';
import { RequestAuthenticator } from './authenticators/authenticator';
import { tlsSocketOf } from './request-auth';
import { ANONYMOUS, INSECURE_USER, withAuthenticatedGroup } from '../apimachinery/authentication/user-info';

/**
 * Puts the request's user on it (upstream's WithAuthentication). On the secure port the authenticators are tried in
 * kube-apiserver's order and the first that recognises the request wins; credentials that none accepts are a 401,
 * and a request without any is anonymous when --anonymous-auth allows it. The insecure port has no authentication:
 * every request on it is 1.7's superuser.
 */
export class AuthenticationFilter implements RequestFilter {
  private readonly logger = new Logger('Authentication');

  constructor(
    private readonly authenticators: readonly RequestAuthenticator[],
    private readonly anonymous: boolean,
  ) {}

  /** Sets `request.auth`; throws the 401 Status when the request cannot be authenticated. */
  async filter(request: FastifyRequest): Promise<void> {
    if (!tlsSocketOf(request)) {
      request.auth = { user: INSECURE_USER, authenticated: INSECURE_USER, secure: false };
      return;
    }
    const errors: string[] = [];
    for (const authenticator of this.authenticators) {
      const result = await authenticator.authenticate(request);
      if (result && 'user' in result) {
        const user = withAuthenticatedGroup(result.user);
        request.auth = { user, authenticated: user, secure: true };
        return;
      }
      if (result) errors.push(result.error);
    }
    if (errors.length === 0 && this.anonymous) {
      request.auth = { user: ANONYMOUS, authenticated: ANONYMOUS, secure: true };
      return;
    }
    this.logger.debug({ message: 'unable to authenticate the request', uri: request.url, errors });
    throw apiErrors.unauthorized();
  }
}
