import { defineStrategy } from '../../../registry/kind-definition';
import { nameRules } from '../../../apimachinery/validation/names';
import { SERVICE_ACCOUNT, ServiceAccount } from './serviceaccount.schema';

/** A secret reference keeps its name alone, as upstream's strategy cleans it on every write. */
function cleanSecretReferences(sa: ServiceAccount): void {
  if (sa.secrets) sa.secrets = sa.secrets.map((secret) => ({ name: secret.name }));
}

/** ServiceAccount (core v1): no spec, no status; nothing to check beyond the metadata. */
export const SERVICE_ACCOUNT_STRATEGY = defineStrategy({
  nameRule: nameRules.dns1123Subdomain,
  shape: SERVICE_ACCOUNT,
  generation: 'client',
  prepareForCreate: cleanSecretReferences,
  prepareForUpdate: cleanSecretReferences,
});
