import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { defineStrategy } from '../../../registry/kind-definition';
import { THIRD_PARTY_RESOURCE, ThirdPartyResource } from './thirdpartyresource.schema';
import { NameRule, nameRules } from '../../../apimachinery/validation/names';

/** A ThirdPartyResource is named `<kind-name>.<domain>.<tld>`. */
const thirdPartyResourceName: NameRule = (name, prefix) => {
  const errors = nameRules.dns1123Subdomain(name, prefix);
  if (errors.length === 0 && !prefix && name.split('.').length < 3) {
    errors.push(`unexpectedly short resource name: ${name}, expected at least <kind>.<domain>.<tld>`);
  }
  return errors;
};

/** Its versions need names, each once. */
function validateThirdPartyResource(resource: ThirdPartyResource): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  (resource.versions ?? []).forEach((version, i) => {
    const field = `versions[${i}].name`;
    if (!version.name) errors.push(fieldErrors.invalid(field, version, 'must not be empty'));
    if (seen.has(version.name ?? '')) errors.push(fieldErrors.duplicate(field, version));
    seen.add(version.name ?? '');
  });
  return errors;
}

/** ThirdPartyResource: `description` and `versions` at the top level, no generateName. */
export const THIRD_PARTY_RESOURCE_STRATEGY = defineStrategy({
  nameRule: thirdPartyResourceName,
  shape: THIRD_PARTY_RESOURCE,
  generation: 'client',
  supportsGenerateName: false,
  validate: validateThirdPartyResource,
  validateUpdate: validateThirdPartyResource,
});
