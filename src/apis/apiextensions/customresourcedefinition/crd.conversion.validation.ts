import { X509Certificate } from 'node:crypto';
import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { dns1035Label } from '../../../apimachinery/validation/names';
import { CrdConversion, WebhookClientConfig } from './crd.schema';

/** The ConversionReview versions this server sends. */
export const CONVERSION_REVIEW_VERSIONS = ['v1', 'v1beta1'];

const FIELD = 'spec.conversion';
const URL_FORM = '; desired format: https://host[/path]';

/** A webhook's URL: HTTPS, with a host, and no user, query or fragment (the apiserver's ValidateWebhookURL). */
function urlErrors(field: string, text: string): FieldError[] {
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    return [fieldErrors.required(field, `url must be a valid URL: ${(error as Error).message}${URL_FORM}`)];
  }
  const errors: FieldError[] = [];
  const scheme = url.protocol.replace(/:$/, '');
  if (scheme !== 'https') errors.push(fieldErrors.invalid(field, scheme, `'https' is the only allowed URL scheme${URL_FORM}`));
  if (!url.host) errors.push(fieldErrors.invalid(field, url.host, `host must be specified${URL_FORM}`));
  if (url.username || url.password) errors.push(fieldErrors.invalid(field, url.username, 'user information is not permitted in the URL'));
  if (url.hash) errors.push(fieldErrors.invalid(field, url.hash.slice(1), 'fragments are not permitted in the URL'));
  if (url.search) errors.push(fieldErrors.invalid(field, url.search.slice(1), 'query parameters are not permitted in the URL'));
  return errors;
}

/** A service reference: a name, a namespace, a port, and a path that starts with a slash. */
function serviceErrors(field: string, service: NonNullable<WebhookClientConfig['service']>): FieldError[] {
  const errors: FieldError[] = [];
  if (!service.name) errors.push(fieldErrors.required(`${field}.name`, 'service name is required'));
  if (!service.namespace) errors.push(fieldErrors.required(`${field}.namespace`, 'service namespace is required'));
  const port = service.port ?? 443;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    errors.push(fieldErrors.invalid(`${field}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'));
  }
  const path = service.path;
  if (path && path !== '/' && !path.startsWith('/')) errors.push(fieldErrors.invalid(`${field}.path`, path, "must start with a '/'"));
  return errors;
}

/** The PEM certificates of a caBundle (base64 in JSON); undefined when it holds none that parse. */
export function caCertificates(caBundle: string): string[] | undefined {
  const pem = Buffer.from(caBundle, 'base64').toString('utf8');
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  try {
    blocks.forEach((block) => new X509Certificate(block));
  } catch {
    return undefined;
  }
  return blocks.length > 0 ? blocks : undefined;
}

function clientConfigErrors(field: string, config: WebhookClientConfig): FieldError[] {
  const errors: FieldError[] = [];
  if ((config.url === undefined) === (config.service === undefined)) errors.push(fieldErrors.required(field, 'exactly one of url or service is required'));
  else if (config.url !== undefined) errors.push(...urlErrors(`${field}.url`, config.url));
  else if (config.service) errors.push(...serviceErrors(`${field}.service`, config.service));
  if (config.caBundle && !caCertificates(config.caBundle)) {
    errors.push(fieldErrors.invalid(`${field}.caBundle`, config.caBundle, 'data does not contain any valid RSA or ECDSA certificates'));
  }
  return errors;
}

function reviewVersionErrors(field: string, versions: readonly string[] | undefined): FieldError[] {
  if (!versions?.length) return [fieldErrors.required(field, '')];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((version, i) => {
    if (seen.has(version)) return errors.push(fieldErrors.invalid(`${field}[${i}]`, version, 'duplicate version'));
    seen.add(version);
    dns1035Label(version).forEach((message) => errors.push(fieldErrors.invalid(`${field}[${i}]`, version, message)));
  });
  if (!versions.some((version) => CONVERSION_REVIEW_VERSIONS.includes(version))) {
    errors.push(fieldErrors.invalid(field, versions, `must include at least one of ${[...CONVERSION_REVIEW_VERSIONS].sort().join(', ')}`));
  }
  return errors;
}

/**
 * A definition's conversion, checked as the apiextensions apiserver checks its internal form (so the fields are
 * named `webhookClientConfig` and `conversionReviewVersions` whichever version wrote them): the Webhook strategy
 * needs both, None takes neither.
 */
export function conversionErrors(conversion: CrdConversion | undefined): FieldError[] {
  if (!conversion) return [];
  const { strategy, webhook } = conversion;
  if (strategy !== 'None' && strategy !== 'Webhook') return [fieldErrors.notSupported(`${FIELD}.strategy`, strategy, ['None', 'Webhook'])];
  if (strategy === 'None') {
    const errors: FieldError[] = [];
    const forbidden = 'should not be set when strategy is not set to Webhook';
    if (webhook?.clientConfig) errors.push(fieldErrors.forbidden(`${FIELD}.webhookClientConfig`, forbidden));
    if (webhook?.conversionReviewVersions?.length) errors.push(fieldErrors.forbidden(`${FIELD}.conversionReviewVersions`, forbidden));
    return errors;
  }
  return [
    ...(webhook?.clientConfig
      ? clientConfigErrors(`${FIELD}.webhookClientConfig`, webhook.clientConfig)
      : [fieldErrors.required(`${FIELD}.webhookClientConfig`, 'required when strategy is set to Webhook')]),
    ...reviewVersionErrors(`${FIELD}.conversionReviewVersions`, webhook?.conversionReviewVersions),
  ];
}
