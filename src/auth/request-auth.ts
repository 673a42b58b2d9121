import { FastifyRequest } from 'fastify';
import { TLSSocket } from 'node:tls';
import { UserInfo } from '../apimachinery/authentication/user-info';

/** What the authentication and impersonation filters learned about a request; handlers read it, never check it. */
export interface RequestAuth {
  /** whom the request acts as: the impersonated user, or the authenticated one */
  user: UserInfo;
  /** who sent it, as authenticated */
  authenticated: UserInfo;
  /** it came over TLS, on the secure port */
  secure: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: RequestAuth;
  }
}

/** The TLS socket a request came over; undefined on the insecure port (HTTP/2 requests reach it through a proxy). */
export function tlsSocketOf(request: FastifyRequest): TLSSocket | undefined {
  const socket = request.raw.socket as TLSSocket;
  return socket.encrypted ? socket : undefined;
}
