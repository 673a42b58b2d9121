import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { nameRules } from '../../../apimachinery/validation/names';
import { defineKind } from '../../../registry/define-kind';
import { defineStrategy, TokenBinding } from '../../../registry/kind-definition';
import { AUTHENTICATION_V1, TOKEN_REQUEST, TokenRequest } from './token-request.schema';

const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;

function validateTokenRequest(request: TokenRequest): FieldError[] {
  const seconds = request.spec?.expirationSeconds ?? 0;
  if (seconds < MIN_EXPIRATION_SECONDS) return [fieldErrors.invalid('spec.expirationSeconds', seconds, 'may not specify a duration less than 10 minutes')];
  if (seconds > MAX_EXPIRATION_SECONDS) return [fieldErrors.invalid('spec.expirationSeconds', seconds, 'may not specify a duration larger than 2^32 seconds')];
  return [];
}

/** TokenRequest (authentication.k8s.io/v1), the body and answer of `serviceaccounts/{name}/token`; never stored. */
const TOKEN_REQUEST_KIND = defineKind(AUTHENTICATION_V1, {
  resource: 'serviceaccounts/token',
  kind: 'TokenRequest',
  namespaced: true,
  strategy: defineStrategy({
    nameRule: nameRules.dns1123Subdomain,
    shape: TOKEN_REQUEST,
    applyDefaults(request: TokenRequest) {
      request.spec = { ...request.spec, expirationSeconds: request.spec?.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS };
    },
    validate: validateTokenRequest,
  }),
});

/** The objects of the core group a token may be bound to (upstream's Pods and Nodes are not served here). */
export const BOUND_KINDS = { Secret: { group: '', version: 'v1', resource: 'secrets' } };

/** A ServiceAccount's `token` subresource: a TokenRequest in, the same with a signed token out. */
export const SERVICE_ACCOUNT_TOKEN: TokenBinding = { requestKind: TOKEN_REQUEST_KIND, boundKinds: BOUND_KINDS };
