import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { Secret } from './secret.schema';

/** The type of a Secret that names none. */
export const OPAQUE = 'Opaque';

const redacted = '<secret contents redacted>';

/** Why a value is not a JSON object as Go's decoder would say it; undefined when it is one. */
function jsonObjectError(base64: string): string | undefined {
  const text = Buffer.from(base64, 'base64').toString('utf8');
  if (text.trim() === '') return 'unexpected end of JSON input';
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && (typeof value !== 'object' || Array.isArray(value))) {
      return `json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go value of type map[string]interface {}`;
    }
    return undefined;
  } catch (error) {
    return goSyntaxError((error as Error).message, text);
  }
}

/** A JSON syntax error as Go words it, naming at most the one character at fault: Node's quotes the input around it. */
function goSyntaxError(message: string, text: string): string {
  if (/end of JSON input/i.test(message)) return 'unexpected end of JSON input';
  const position = /at position (\d+)/.exec(message)?.[1];
  const character = /Unexpected token '(.)'/.exec(message)?.[1] ?? (position === undefined ? undefined : text[Number(position)]);
  return character === undefined ? 'invalid character in JSON' : `invalid character '${character}' looking for beginning of value`;
}

/** A key the type requires in `data`, holding a JSON object (the docker configuration types). */
function dockerConfig(key: string) {
  return (secret: Secret): FieldError[] => {
    const value = secret.data?.[key];
    if (value === undefined) return [fieldErrors.required(`data[${key}]`)];
    const error = jsonObjectError(value);
    return error === undefined ? [] : [fieldErrors.invalid(`data[${key}]`, redacted, error)];
  };
}

const has = (secret: Secret, key: string) => secret.data !== undefined && Object.hasOwn(secret.data, key);

/** What each of upstream's typed secrets requires (the other types, Opaque among them, require nothing). */
const TYPE_RULES: Readonly<Record<string, (secret: Secret) => FieldError[]>> = {
  'kubernetes.io/service-account-token': (secret) =>
    secret.metadata.annotations?.['kubernetes.io/service-account.name']
      ? []
      : [fieldErrors.required('metadata.annotations[kubernetes.io/service-account.name]')],
  'kubernetes.io/dockercfg': dockerConfig('.dockercfg'),
  'kubernetes.io/dockerconfigjson': dockerConfig('.dockerconfigjson'),
  // upstream names these fields `data[%s][username]`, a format string its path builder never fills in
  'kubernetes.io/basic-auth': (secret) =>
    has(secret, 'username') || has(secret, 'password') ? [] : [fieldErrors.required('data[%s][username]'), fieldErrors.required('data[%s][password]')],
  'kubernetes.io/ssh-auth': (secret) => (secret.data?.['ssh-privatekey'] ? [] : [fieldErrors.required('data[%s][ssh-privatekey]')]),
  'kubernetes.io/tls': (secret) => ['tls.crt', 'tls.key'].filter((key) => !has(secret, key)).map((key) => fieldErrors.required(`data[${key}]`)),
};

/** The checks of a Secret's type: the keys (and annotations) it requires. */
export const typeErrors = (secret: Secret): FieldError[] => TYPE_RULES[secret.type ?? OPAQUE]?.(secret) ?? [];
