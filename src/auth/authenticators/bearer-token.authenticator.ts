import { FastifyRequest } from 'fastify';
import { AuthenticationResult, RequestAuthenticator, TokenAuthenticator } from './authenticator';

/**
 * `Authorization: Bearer <token>` tried on each token authenticator in turn (upstream's order: the token file, service
 * account tokens, then OIDC); a token none of them knows is an error.
 */
export class BearerTokenAuthenticator implements RequestAuthenticator {
  constructor(private readonly authenticators: readonly TokenAuthenticator[]) {}

  async authenticate(request: FastifyRequest): Promise<AuthenticationResult> {
    const match = /^bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match) return undefined;
    const errors: string[] = [];
    for (const authenticator of this.authenticators) {
      const result = await authenticator.authenticateToken(match[1]);
      if (result && 'user' in result) return result;
      if (result) errors.push(result.error);
    }
    return { error: errors.length > 0 ? errors.join('; ') : 'invalid bearer token' };
  }
}
