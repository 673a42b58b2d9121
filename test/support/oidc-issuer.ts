import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { Issued } from './pki';

export interface OidcIssuer {
  url: string;
  /** a signed ID token with these claims (iss, aud, iat and a one-hour exp unless given) */
  token(claims: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** A small OpenID provider over HTTPS (its certificate from the test's own CA): discovery, JWKS and signed tokens. */
export async function startOidcIssuer(serving: Issued, audience: string): Promise<OidcIssuer> {
  const { generateKeyPair, exportJWK, SignJWT } = await import('jose');
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  let url = '';
  const server: Server = createServer({ cert: readFileSync(serving.cert), key: readFileSync(serving.key) }, (request, response) => {
    const documents: Record<string, unknown> = {
      '/.well-known/openid-configuration': { issuer: url, jwks_uri: `${url}/keys`, id_token_signing_alg_values_supported: ['RS256'] },
      '/keys': { keys: [jwk] },
    };
    const document = documents[request.url ?? ''];
    response.writeHead(document ? 200 : 404, { 'content-type': 'application/json' });
    response.end(JSON.stringify(document ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    token: (claims) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: url, aud: audience, iat: now, exp: now + 3600, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .sign(privateKey);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
