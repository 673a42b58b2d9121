import { Global, Module } from '@nestjs/common';
import { Settings } from '../../../config/settings';
import { loadServiceAccountKeys, ServiceAccountKeys } from './service-account-keys';
import { ServiceAccountTokens } from './service-account-tokens';

const commaList = (value: string) => value.split(',').filter((item) => item !== '');

/**
 * The service account token signer and verifier, made from the settings' keys, issuers and audiences. Key files the
 * settings name are read at start (a bad one stops the server); the default key is read or made when first needed,
 * so that a server that never issues or sees a token leaves CERT_DIR alone.
 */
async function serviceAccountTokens(settings: Settings): Promise<ServiceAccountTokens> {
  const issuers = commaList(settings.SERVICE_ACCOUNT_ISSUER);
  const audiences = settings.API_AUDIENCES ? commaList(settings.API_AUDIENCES) : issuers;
  let keys: Promise<ServiceAccountKeys> | undefined;
  // a failure (a CERT_DIR not writable yet) is tried again at the next need
  const load = () =>
    (keys ??= loadServiceAccountKeys(settings).catch((error: unknown) => {
      keys = undefined;
      throw error;
    }));
  if (settings.SERVICE_ACCOUNT_SIGNING_KEY_FILE || settings.SERVICE_ACCOUNT_KEY_FILE) await load();
  return new ServiceAccountTokens(load, { issuers, audiences });
}

/** Service account tokens for whoever issues (the `token` subresource) or accepts them (the authenticator). */
@Global()
@Module({
  providers: [{ provide: ServiceAccountTokens, useFactory: serviceAccountTokens, inject: [Settings] }],
  exports: [ServiceAccountTokens],
})
export class ServiceAccountTokensModule {}
