import { get } from 'node:https';
import type { JSONWebKeySet } from 'jose' with { 'resolution-mode': 'import' };

/** GETs a JSON document over HTTPS, trusting `ca` when given (the issuer's own CA, --oidc-ca-file). */
export function fetchJson(url: string, ca: string | undefined): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (!url.startsWith('https://')) {
      reject(new Error(`${url}: the issuer's documents are fetched over https only`));
      return;
    }
    const request = get(url, { ca, timeout: 10_000, headers: { accept: 'application/json' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        if (response.statusCode !== 200) reject(new Error(`${url}: HTTP ${response.statusCode}`));
        else {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch (error) {
            reject(new Error(`${url}: ${(error as Error).message}`));
          }
        }
      });
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`${url}: timed out`)));
    request.on('error', reject);
  });
}

const REFRESH_INTERVAL_MS = 10_000;

/**
 * The issuer's signing keys: discovery (`/.well-known/openid-configuration`) names the JWKS, which is fetched when
 * first needed and again when a token names a key it does not hold (at most every 10 s, so that tokens with made-up
 * key ids cannot make the server hammer the issuer).
 */
export class OidcKeys {
  private keys?: JSONWebKeySet;
  private fetchedAt = 0;
  private pending?: Promise<JSONWebKeySet>;

  constructor(
    private readonly issuer: string,
    private readonly ca: string | undefined,
  ) {}

  /** The key set; refreshed when `stale` (a key was not found) and the last fetch is old enough. */
  async get(stale = false): Promise<JSONWebKeySet> {
    const due = !this.keys || (stale && Date.now() - this.fetchedAt >= REFRESH_INTERVAL_MS);
    if (!due) return this.keys as JSONWebKeySet;
    this.pending ??= this.fetch().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async fetch(): Promise<JSONWebKeySet> {
    const discovery = (await fetchJson(`${this.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, this.ca)) as {
      issuer?: string;
      jwks_uri?: string;
    };
    if (discovery.issuer !== this.issuer) {
      throw new Error(`oidc: issuer did not match the issuer returned by provider, expected "${this.issuer}" got "${discovery.issuer}"`);
    }
    if (!discovery.jwks_uri) throw new Error('oidc: the discovery document has no jwks_uri');
    const keys = (await fetchJson(discovery.jwks_uri, this.ca)) as JSONWebKeySet;
    if (!Array.isArray(keys?.keys)) throw new Error(`${discovery.jwks_uri}: not a JWK set`);
    this.keys = keys;
    this.fetchedAt = Date.now();
    return keys;
  }
}
