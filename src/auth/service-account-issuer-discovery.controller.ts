import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { hostname } from 'node:os';
import { apiErrors } from '../apimachinery/errors/status-error';
import { ServiceAccountTokens } from '../apis/core/serviceaccount/service-account-tokens';
import { Settings } from '../config/settings';

export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';

/** How long clients may keep the documents: the keys only change when the server restarts with others. */
const CACHE_CONTROL = 'public, max-age=3600';

/** The secure port's address as others reach it: the bind address, or this machine's name for every address. */
function externalAddress(settings: Settings): string {
  const address = settings.BIND_ADDRESS;
  const host = address === '0.0.0.0' || address === '::' ? hostname() : address.includes(':') ? `[${address}]` : address;
  return `${host}:${settings.SECURE_PORT}`;
}

/**
 * The service account issuer's OpenID Connect discovery documents, as kube-apiserver serves them (non-resource URLs,
 * which the `system:service-account-issuer-discovery` role grants), so that others can verify its tokens: the
 * provider configuration and the key set. As upstream, only an https issuer has them.
 */
@Controller()
export class ServiceAccountIssuerDiscoveryController {
  private readonly issuer: string;
  private readonly jwksUri: string;

  constructor(
    private readonly tokens: ServiceAccountTokens,
    settings: Settings,
  ) {
    this.issuer = tokens.settings.issuers[0];
    this.jwksUri = settings.SERVICE_ACCOUNT_JWKS_URI || `https://${externalAddress(settings)}${JWKS_PATH}`;
  }

  @Get(OPENID_CONFIGURATION_PATH)
  async configuration(@Res() reply: FastifyReply) {
    this.checkServed();
    const document = {
      issuer: this.issuer,
      jwks_uri: this.jwksUri,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: await this.tokens.algorithms(),
    };
    reply.code(200).header('content-type', 'application/json').header('cache-control', CACHE_CONTROL).send(Buffer.from(JSON.stringify(document)));
  }

  @Get(JWKS_PATH)
  async keySet(@Res() reply: FastifyReply) {
    this.checkServed();
    const keys = await this.tokens.jwks();
    reply.code(200).header('content-type', 'application/jwk-set+json').header('cache-control', CACHE_CONTROL).send(Buffer.from(JSON.stringify(keys)));
  }

  private checkServed(): void {
    if (!this.issuer.startsWith('https://')) throw apiErrors.pathNotFound();
  }
}
