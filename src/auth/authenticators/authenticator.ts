import { FastifyRequest } from 'fastify';
import { UserInfo } from '../../apimachinery/authentication/user-info';

/**
 * An authenticator's answer: the user, an error (the credentials it handles are present but wrong), or undefined
 * when the request carries no credentials of its kind.
 */
export type AuthenticationResult = { user: UserInfo } | { error: string } | undefined;

export interface RequestAuthenticator {
  authenticate(request: FastifyRequest): Promise<AuthenticationResult>;
}

export interface TokenAuthenticator {
  authenticateToken(token: string): Promise<AuthenticationResult>;
}
