import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { COMMON_FIELD_LABELS } from '../../../apimachinery/selectors/field-labels';
import { nameRules } from '../../../apimachinery/validation/names';
import { defineStrategy } from '../../../registry/kind-definition';
import { dataSize, immutableDataErrors, keyErrors, MAX_DATA_SIZE } from '../config-data/config-data.validation';
import { SECRET, Secret } from './secret.schema';
import { OPAQUE, typeErrors } from './secret-types';

/** `stringData` is write-only: its values go into `data` (winning over the same keys), as upstream's conversion does. */
function defaultSecret(secret: Secret): void {
  if (secret.stringData) {
    const data = (secret.data ??= {});
    for (const [key, value] of Object.entries(secret.stringData)) data[key] = Buffer.from(value, 'utf8').toString('base64');
    delete secret.stringData;
  }
  if (!secret.type) secret.type = OPAQUE;
}

function validateSecret(secret: Secret): FieldError[] {
  const errors = keyErrors(secret.data, 'data');
  if (dataSize(secret.data, 'base64') > MAX_DATA_SIZE) errors.push(fieldErrors.tooLong('data', MAX_DATA_SIZE));
  return [...errors, ...typeErrors(secret)];
}

function validateSecretUpdate(secret: Secret, old: Secret): FieldError[] {
  const errors = secret.type === old.type ? [] : [fieldErrors.invalid('type', secret.type, 'field is immutable')];
  return [...errors, ...immutableDataErrors(secret, old, ['data']), ...validateSecret(secret)];
}

/** Secret (core v1): ConfigMap's key and size rules, the typed secrets' required keys, a type fixed at creation. */
export const SECRET_STRATEGY = defineStrategy({
  nameRule: nameRules.dns1123Subdomain,
  shape: SECRET,
  generation: 'client',
  applyDefaults: defaultSecret,
  validate: validateSecret,
  validateUpdate: validateSecretUpdate,
  fieldLabels: { ...COMMON_FIELD_LABELS, type: { path: ['type'], absent: '' } },
});
