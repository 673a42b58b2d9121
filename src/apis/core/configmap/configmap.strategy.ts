import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { nameRules } from '../../../apimachinery/validation/names';
import { defineStrategy } from '../../../registry/kind-definition';
import { dataSize, immutableDataErrors, keyErrors, MAX_DATA_SIZE } from '../config-data/config-data.validation';
import { CONFIG_MAP, ConfigMap } from './configmap.schema';

const duplicates = (keys: Readonly<Record<string, unknown>> | undefined, of: Readonly<Record<string, unknown>> | undefined, field: string, other: string) =>
  Object.keys(keys ?? {})
    .filter((key) => Object.hasOwn(of ?? {}, key))
    .map((key) => fieldErrors.invalid(`${field}[${key}]`, key, `duplicate of key present in ${other}`));

function validateConfigMap(configMap: ConfigMap): FieldError[] {
  const { data, binaryData } = configMap;
  const errors = [
    ...keyErrors(data, 'data'),
    ...duplicates(data, binaryData, 'data', 'binaryData'),
    ...keyErrors(binaryData, 'binaryData'),
    ...duplicates(binaryData, data, 'binaryData', 'data'),
  ];
  // the whole object is at fault, which upstream says with an empty field path
  if (dataSize(data, 'utf8') + dataSize(binaryData, 'base64') > MAX_DATA_SIZE) errors.push(fieldErrors.tooLong('', MAX_DATA_SIZE));
  return errors;
}

/** ConfigMap (core v1): keys as upstream checks them, 1 MiB of values at most, and immutability once asked for. */
export const CONFIG_MAP_STRATEGY = defineStrategy({
  nameRule: nameRules.dns1123Subdomain,
  shape: CONFIG_MAP,
  generation: 'client',
  validate: validateConfigMap,
  validateUpdate: (configMap: ConfigMap, old: ConfigMap) => [
    ...immutableDataErrors(configMap, old, ['data', 'binaryData']),
    ...validateConfigMap(configMap),
  ],
});
