import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { dns1035Label, dns1123Subdomain } from '../../../apimachinery/validation/names';
import { conversionErrors } from './crd.conversion.validation';
import { CrdColumn, CrdNames, CrdScale, CrdVersion, CustomResourceDefinition } from './crd.schema';

const COLUMN_TYPES = ['integer', 'number', 'string', 'boolean', 'date'];

/** Each message of a name rule as an Invalid cause of `field`. */
const ruleErrors = (field: string, value: string, messages: string[]): FieldError[] => messages.map((m) => fieldErrors.invalid(field, value, m));

function validateNames(names: CrdNames | undefined): FieldError[] {
  const errors: FieldError[] = [];
  const label = (field: string, value: string | undefined, requiredValue: boolean) => {
    if (!value) {
      if (requiredValue) errors.push(fieldErrors.required(`spec.names.${field}`));
      return;
    }
    errors.push(...ruleErrors(`spec.names.${field}`, value, dns1035Label(value.toLowerCase())));
  };
  label('plural', names?.plural, true);
  label('singular', names?.singular, true);
  label('kind', names?.kind, true);
  label('listKind', names?.listKind, true);
  if (names?.kind && names.kind === names.listKind) {
    errors.push(fieldErrors.invalid('spec.names.listKind', names.listKind, 'kind and listKind may not be the same'));
  }
  (names?.shortNames ?? []).forEach((name, i) => label(`shortNames[${i}]`, name, true));
  (names?.categories ?? []).forEach((name, i) => label(`categories[${i}]`, name, true));
  return errors;
}

function validateScale(field: string, scale: CrdScale): FieldError[] {
  const errors: FieldError[] = [];
  const path = (name: keyof CrdScale, prefixes: string[], requiredValue: boolean) => {
    const value = scale[name];
    if (!value) {
      if (requiredValue) errors.push(fieldErrors.required(`${field}.${name}`));
    } else if (!prefixes.some((p) => value.startsWith(p))) {
      errors.push(fieldErrors.invalid(`${field}.${name}`, value, `should be a json path under ${prefixes.join(' or ')}`));
    }
  };
  path('specReplicasPath', ['.spec.'], true);
  path('statusReplicasPath', ['.status.'], true);
  path('labelSelectorPath', ['.spec.', '.status.'], false);
  return errors;
}

function validateColumn(field: string, column: CrdColumn): FieldError[] {
  const errors: FieldError[] = [];
  if (!column.name) errors.push(fieldErrors.required(`${field}.name`));
  if (!column.type) errors.push(fieldErrors.required(`${field}.type`));
  else if (!COLUMN_TYPES.includes(column.type)) errors.push(fieldErrors.notSupported(`${field}.type`, column.type, COLUMN_TYPES));
  if (!column.jsonPath) errors.push(fieldErrors.required(`${field}.jsonPath`));
  else if (!column.jsonPath.startsWith('.')) errors.push(fieldErrors.invalid(`${field}.jsonPath`, column.jsonPath, 'must be a simple json path starting with .'));
  if (column.priority !== undefined && column.priority < 0) errors.push(fieldErrors.invalid(`${field}.priority`, column.priority, 'must be greater than or equal to 0'));
  return errors;
}

function validateVersion(field: string, version: CrdVersion, validateSchema: SchemaCheck): FieldError[] {
  const errors: FieldError[] = [];
  if (!version.name) errors.push(fieldErrors.required(`${field}.name`));
  else errors.push(...ruleErrors(`${field}.name`, version.name, dns1035Label(version.name)));
  const schema = version.schema?.openAPIV3Schema;
  if (schema === undefined) errors.push(fieldErrors.required(`${field}.schema.openAPIV3Schema`, 'schemas are required'));
  else errors.push(...validateSchema(`${field}.schema.openAPIV3Schema`, schema, version));
  if (version.subresources?.scale) errors.push(...validateScale(`${field}.subresources.scale`, version.subresources.scale));
  (version.additionalPrinterColumns ?? []).forEach((column, i) => errors.push(...validateColumn(`${field}.additionalPrinterColumns[${i}]`, column)));
  return errors;
}

/** Checks a version's openAPIV3Schema at `field`; the version says which subresources the schema must allow. */
export type SchemaCheck = (field: string, schema: unknown, version: CrdVersion) => FieldError[];

/** The checks of a definition (the apiextensions apiserver's ValidateCustomResourceDefinition, in short). */
export function validateDefinition(crd: CustomResourceDefinition, validateSchema: SchemaCheck): FieldError[] {
  const errors: FieldError[] = [];
  const { spec } = crd;
  const group = spec.group;
  if (!group) errors.push(fieldErrors.required('spec.group'));
  else {
    errors.push(...ruleErrors('spec.group', group, dns1123Subdomain(group)));
    if (group.split('.').length < 2) errors.push(fieldErrors.invalid('spec.group', group, 'should be a domain with at least one dot'));
  }
  if (spec.names?.plural && group && crd.metadata.name !== `${spec.names.plural}.${group}`) {
    errors.push(fieldErrors.invalid('metadata.name', crd.metadata.name, 'must be spec.names.plural+"."+spec.group'));
  }
  errors.push(...validateNames(spec.names));
  if (!spec.scope) errors.push(fieldErrors.required('spec.scope'));
  else if (!['Cluster', 'Namespaced'].includes(spec.scope)) errors.push(fieldErrors.notSupported('spec.scope', spec.scope, ['Cluster', 'Namespaced']));
  const versions = spec.versions ?? [];
  if (versions.length === 0) errors.push(fieldErrors.required('spec.versions', 'must have exactly one version marked as storage version'));
  const seen = new Set<string>();
  versions.forEach((version, i) => {
    errors.push(...validateVersion(`spec.versions[${i}]`, version, validateSchema));
    if (version.name && seen.has(version.name)) errors.push(fieldErrors.duplicate(`spec.versions[${i}].name`, version.name));
    seen.add(version.name ?? '');
  });
  if (versions.length > 0 && versions.filter((v) => v.storage).length !== 1) {
    errors.push(fieldErrors.invalid('spec.versions', versions, 'must have exactly one version marked as storage version'));
  }
  if (versions.length > 0 && !versions.some((v) => v.served)) {
    errors.push(fieldErrors.invalid('spec.versions', versions, 'must have at least one version marked as served'));
  }
  errors.push(...conversionErrors(spec.conversion));
  if (spec.preserveUnknownFields) {
    errors.push(
      fieldErrors.invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'),
    );
  }
  return errors;
}

/** What may not change: the scope, the group, and stored versions may not leave `spec.versions`. */
export function validateDefinitionUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): FieldError[] {
  const errors: FieldError[] = [];
  if (crd.spec.scope !== old.spec.scope) errors.push(fieldErrors.invalid('spec.scope', crd.spec.scope, 'field is immutable'));
  if (crd.spec.group !== old.spec.group) errors.push(fieldErrors.invalid('spec.group', crd.spec.group, 'field is immutable'));
  const names = new Set((crd.spec.versions ?? []).map((v) => v.name));
  (crd.status?.storedVersions ?? []).forEach((stored, i) => {
    if (!names.has(stored)) errors.push(fieldErrors.invalid(`status.storedVersions[${i}]`, stored, 'must appear in spec.versions'));
  });
  return errors;
}
