import type { JWTPayload } from 'jose' with { 'resolution-mode': 'import' };
import { claimedIssuer } from '../../apimachinery/authentication/claimed-issuer';
import { UserInfo } from '../../apimachinery/authentication/user-info';
import { AuthenticationResult, TokenAuthenticator } from './authenticator';
import { OidcKeys } from './oidc-keys';

export interface OidcOptions {
  issuer: string;
  clientId: string;
  usernameClaim: string;
  /** '' for upstream's default (the issuer and '#' for claims other than email), '-' for none */
  usernamePrefix: string;
  groupsClaim: string;
  groupsPrefix: string;
  ca?: string;
}

const SIGNING_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'];

/** OpenID Connect ID tokens as bearer tokens: verified with jose against the issuer's published keys. */
export class OidcAuthenticator implements TokenAuthenticator {
  private readonly keys: OidcKeys;
  private readonly usernamePrefix: string;

  constructor(private readonly options: OidcOptions) {
    this.keys = new OidcKeys(options.issuer, options.ca);
    const prefix = options.usernamePrefix;
    this.usernamePrefix = prefix === '-' ? '' : prefix !== '' ? prefix : options.usernameClaim === 'email' ? '' : `${options.issuer}#`;
  }

  async authenticateToken(token: string): Promise<AuthenticationResult> {
    if (claimedIssuer(token) !== this.options.issuer) return undefined;
    try {
      return this.user(await this.verify(token));
    } catch (error) {
      return { error: `oidc: ${(error as Error).message}` };
    }
  }

  private async verify(token: string): Promise<JWTPayload> {
    const { createLocalJWKSet, jwtVerify, errors } = await import('jose');
    const options = { issuer: this.options.issuer, audience: this.options.clientId, algorithms: SIGNING_ALGORITHMS, requiredClaims: ['exp'] };
    try {
      return (await jwtVerify(token, createLocalJWKSet(await this.keys.get()), options)).payload;
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      return (await jwtVerify(token, createLocalJWKSet(await this.keys.get(true)), options)).payload;
    }
  }

  private user(claims: JWTPayload): AuthenticationResult {
    const { usernameClaim, groupsClaim, groupsPrefix } = this.options;
    const username = claims[usernameClaim];
    if (typeof username !== 'string' || username === '') return { error: `oidc: claim "${usernameClaim}" is not a non-empty string` };
    if (usernameClaim === 'email' && claims.email_verified !== undefined && claims.email_verified !== true) {
      return { error: `oidc: email "${username}" not verified` };
    }
    const user: UserInfo = { username: this.usernamePrefix + username, groups: [] };
    if (groupsClaim && claims[groupsClaim] !== undefined) {
      const value = claims[groupsClaim];
      const groups = typeof value === 'string' ? [value] : value;
      if (!Array.isArray(groups) || groups.some((g) => typeof g !== 'string')) {
        return { error: `oidc: claim "${groupsClaim}" is not a string or a list of strings` };
      }
      user.groups = (groups as string[]).map((g) => groupsPrefix + g);
    }
    return { user };
  }
}
