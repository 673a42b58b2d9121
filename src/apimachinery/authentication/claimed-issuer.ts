/**
 * The issuer a JWT claims, read without verifying it: a token authenticator leaves the tokens of other issuers to
 * the others.
 */
export function claimedIssuer(token: string): string | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { iss?: unknown };
    return typeof payload.iss === 'string' ? payload.iss : undefined;
  } catch {
    return undefined;
  }
}
