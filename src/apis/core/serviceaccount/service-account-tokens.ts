import { randomUUID } from 'node:crypto';
import type { JWK, JWTPayload, JWTVerifyGetKey } from 'jose' with { 'resolution-mode': 'import' };
import { claimedIssuer } from '../../../apimachinery/authentication/claimed-issuer';
import { ServiceAccountKeys } from './service-account-keys';

/** An object a token is bound to besides its service account (a Secret), as the `kubernetes.io` claim names it. */
export interface BoundReference {
  name: string;
  uid: string;
}

/** What a token says about its service account: upstream's `kubernetes.io` private claim. */
export interface ServiceAccountClaim {
  namespace: string;
  serviceaccount: BoundReference;
  secret?: BoundReference;
}

/** A token's claims: the registered ones and upstream's private one. */
export type TokenClaims = JWTPayload & { 'kubernetes.io': ServiceAccountClaim };

export interface IssuedToken {
  token: string;
  /** the claims it was signed with */
  claims: TokenClaims;
}

/** A verified token's claims, or why it is refused; undefined when the token is no service account token of ours. */
export type VerifiedToken = { claims: TokenClaims } | { error: string } | undefined;

export interface TokenSettings {
  /** the first signs (`iss`), all are accepted */
  issuers: readonly string[];
  /** the audiences a token must name one of to authenticate here; a TokenRequest without audiences gets them */
  audiences: readonly string[];
}

/** Tokens are accepted up to a minute past their expiry or before their start, as upstream's JWT validation allows. */
const LEEWAY_SECONDS = 60;

export const serviceAccountUsername = (namespace: string, name: string) => `system:serviceaccount:${namespace}:${name}`;

const isReference = (value: unknown): value is BoundReference =>
  typeof value === 'object' && value !== null && typeof (value as BoundReference).name === 'string' && typeof (value as BoundReference).uid === 'string';

/**
 * Signs and verifies service account tokens (upstream's JWT token generator and authenticator): JWTs signed with the
 * signing key (RS256 or ES256/384/512, with the key's id), carrying upstream's claims.
 */
export class ServiceAccountTokens {
  /** `keys` gives the keys, read or made when first asked for */
  constructor(
    private readonly keys: () => Promise<ServiceAccountKeys>,
    readonly settings: TokenSettings,
  ) {}

  /** A token for the account, for `audiences`, valid `expirationSeconds` from `now` (ms). */
  async issue(claim: ServiceAccountClaim, audiences: readonly string[], expirationSeconds: number, now: number): Promise<IssuedToken> {
    const { SignJWT } = await import('jose');
    const issuedAt = Math.floor(now / 1000);
    // the members in the order upstream writes them (its JSON sorts the merged claims)
    const claims = {
      aud: [...audiences],
      exp: issuedAt + expirationSeconds,
      iat: issuedAt,
      iss: this.settings.issuers[0],
      jti: randomUUID(),
      'kubernetes.io': claim,
      nbf: issuedAt,
      sub: serviceAccountUsername(claim.namespace, claim.serviceaccount.name),
    };
    const { alg, kid, key } = (await this.keys()).signing;
    const token = await new SignJWT(claims).setProtectedHeader({ alg, kid }).sign(key);
    return { token, claims };
  }

  /** Checks a bearer token's signature, issuer, audience and times; the caller checks the objects it names. */
  async verify(token: string): Promise<VerifiedToken> {
    const issuer = claimedIssuer(token);
    if (issuer === undefined || !this.settings.issuers.includes(issuer)) return undefined;
    const { jwtVerify } = await import('jose');
    const { keySet, algorithms } = await this.verification();
    try {
      const { payload } = await jwtVerify(token, keySet, {
        issuer: [...this.settings.issuers],
        audience: [...this.settings.audiences],
        algorithms,
        clockTolerance: LEEWAY_SECONDS,
        requiredClaims: ['exp', 'sub'],
      });
      const claim = payload['kubernetes.io'] as Partial<ServiceAccountClaim> | undefined;
      if (typeof claim?.namespace !== 'string' || !isReference(claim.serviceaccount) || (claim.secret !== undefined && !isReference(claim.secret))) {
        return { error: 'service account token has no valid kubernetes.io claim' };
      }
      return { claims: payload as TokenClaims };
    } catch (error) {
      return { error: `service account token: ${(error as Error).message}` };
    }
  }

  /** The key set and algorithms every verification uses, made once: the keys do not change while the server runs. */
  private verification(): Promise<{ keySet: JWTVerifyGetKey; algorithms: string[] }> {
    this.verifier ??= (async () => {
      const { createLocalJWKSet } = await import('jose');
      return { keySet: createLocalJWKSet(await this.jwks()), algorithms: await this.algorithms() };
    })();
    return this.verifier;
  }

  private verifier?: Promise<{ keySet: JWTVerifyGetKey; algorithms: string[] }>;

  /** The public keys that verify tokens, as the JWKS document (`/openid/v1/jwks`) lists them. */
  jwks(): Promise<{ keys: JWK[] }> {
    this.keySet ??= this.exportKeys();
    return this.keySet;
  }

  private keySet?: Promise<{ keys: JWK[] }>;

  private async exportKeys(): Promise<{ keys: JWK[] }> {
    const { exportJWK } = await import('jose');
    const keys = await Promise.all(
      (await this.keys()).verifying.map(async ({ key, kid, alg }) => {
        const { kty, crv, x, y, n, e } = await exportJWK(key);
        // the members in upstream's order, its absent ones left out
        return JSON.parse(JSON.stringify({ use: 'sig', kty, kid, crv, alg, x, y, n, e })) as JWK;
      }),
    );
    return { keys };
  }

  /** The algorithms of the verifying keys, sorted, as the discovery document lists them. */
  async algorithms(): Promise<string[]> {
    return [...new Set((await this.keys()).verifying.map((key) => key.alg))].sort();
  }
}
