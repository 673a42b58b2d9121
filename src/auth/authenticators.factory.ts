import { readFileSync } from 'node:fs';
import { Settings } from '../config/settings';
import { RequestAuthenticator, TokenAuthenticator } from './authenticators/authenticator';
import { BearerTokenAuthenticator } from './authenticators/bearer-token.authenticator';
import { OidcAuthenticator } from './authenticators/oidc.authenticator';
import { ServiceAccountAuthenticator } from './authenticators/service-account.authenticator';
import { readTokenFile, TokenFileAuthenticator } from './authenticators/token-file.authenticator';
import { X509Authenticator } from './authenticators/x509.authenticator';
import { AuthenticationFilter } from './authentication.filter';

/**
 * The configured authenticators in kube-apiserver's order: client certificates, the token file, service account
 * tokens, OIDC.
 */
export function authenticationFilter(settings: Settings, serviceAccounts: ServiceAccountAuthenticator): AuthenticationFilter {
  const authenticators: RequestAuthenticator[] = [];
  if (settings.CLIENT_CA_FILE) authenticators.push(new X509Authenticator());
  const tokens: TokenAuthenticator[] = [];
  if (settings.TOKEN_AUTH_FILE) tokens.push(new TokenFileAuthenticator(readTokenFile(settings.TOKEN_AUTH_FILE)));
  tokens.push(serviceAccounts);
  if (settings.OIDC_ISSUER_URL) {
    if (!settings.OIDC_ISSUER_URL.startsWith('https://')) throw new Error('--oidc-issuer-url must be an https:// URL');
    if (!settings.OIDC_CLIENT_ID) throw new Error('--oidc-client-id is needed with --oidc-issuer-url');
    tokens.push(
      new OidcAuthenticator({
        issuer: settings.OIDC_ISSUER_URL,
        clientId: settings.OIDC_CLIENT_ID,
        usernameClaim: settings.OIDC_USERNAME_CLAIM,
        usernamePrefix: settings.OIDC_USERNAME_PREFIX,
        groupsClaim: settings.OIDC_GROUPS_CLAIM,
        groupsPrefix: settings.OIDC_GROUPS_PREFIX,
        ca: settings.OIDC_CA_FILE ? readFileSync(settings.OIDC_CA_FILE, 'utf8') : undefined,
      }),
    );
  }
  authenticators.push(new BearerTokenAuthenticator(tokens));
  return new AuthenticationFilter(authenticators, settings.ANONYMOUS_AUTH);
}
