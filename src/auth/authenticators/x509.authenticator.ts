import { FastifyRequest } from 'fastify';
import { tlsSocketOf } from '../request-auth';
import { AuthenticationResult, RequestAuthenticator } from './authenticator';

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_USAGE = '2.5.29.37.0';

const list = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/**
 * Client certificates verified against --client-ca-file: the subject's common name is the user, its organizations
 * the groups; one whose extended key usages leave out client authentication is refused. The handshake lets any certificate through (so that a bad one gets a 401 Status, not a TLS alert);
 * the verification result is read here.
 */
export class X509Authenticator implements RequestAuthenticator {
  async authenticate(request: FastifyRequest): Promise<AuthenticationResult> {
    const socket = tlsSocketOf(request);
    const certificate = socket?.getPeerCertificate();
    if (!socket || !certificate || Object.keys(certificate).length === 0) return undefined;
    if (!socket.authorized) return { error: `x509: ${socket.authorizationError?.message ?? String(socket.authorizationError)}` };
    // as Go's verifier: a certificate that lists its extended key usages must list client authentication
    const usages = certificate.ext_key_usage;
    if (usages && !usages.includes(CLIENT_AUTH) && !usages.includes(ANY_USAGE)) {
      return { error: 'x509: certificate specifies an incompatible key usage' };
    }
    const username = list(certificate.subject?.CN)[0];
    if (!username) return undefined;
    return { user: { username, groups: list(certificate.subject?.O) } };
  }
}
