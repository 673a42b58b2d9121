import { FastifyRequest } from 'fastify';
import { tlsSocketOf } from '../request-auth';
import { AuthenticationResult, RequestAuthenticator } from './authenticator';

const list = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/**
 * Client certificates verified against --client-ca-file: the subject's common name is the user, its organizations
 * the groups. The handshake lets any certificate through (so that a bad one gets a 401 Status, not a TLS alert);
 * the verification result is read here.
 */
export class X509Authenticator implements RequestAuthenticator {
  async authenticate(request: FastifyRequest): Promise<AuthenticationResult> {
    const socket = tlsSocketOf(request);
    const certificate = socket?.getPeerCertificate();
    if (!socket || !certificate || Object.keys(certificate).length === 0) return undefined;
    if (!socket.authorized) return { error: `x509: ${socket.authorizationError?.message ?? String(socket.authorizationError)}` };
    const username = list(certificate.subject?.CN)[0];
    if (!username) return undefined;
    return { user: { username, groups: list(certificate.subject?.O) } };
  }
}
