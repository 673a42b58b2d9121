import { Global, Module } from '@nestjs/common';
import { Settings } from '../../../config/settings';
import { loadServiceAccountKeys } from './service-account-keys';
import { ServiceAccountTokens } from './service-account-tokens';

const commaList = (value: string) => value.split(',').filter((item) => item !== '');

/** The service account token signer and verifier, made from the settings' keys, issuers and audiences. */
async function serviceAccountTokens(settings: Settings): Promise<ServiceAccountTokens> {
  const issuers = commaList(settings.SERVICE_ACCOUNT_ISSUER);
  const audiences = settings.API_AUDIENCES ? commaList(settings.API_AUDIENCES) : issuers;
  return new ServiceAccountTokens(await loadServiceAccountKeys(settings), { issuers, audiences });
}

/** Service account tokens for whoever issues (the `token` subresource) or accepts them (the authenticator). */
@Global()
@Module({
  providers: [{ provide: ServiceAccountTokens, useFactory: serviceAccountTokens, inject: [Settings] }],
  exports: [ServiceAccountTokens],
})
export class ServiceAccountTokensModule {}
