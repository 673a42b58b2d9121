import { KubeObject } from '../../../apimachinery/meta/kube-object';
import { nameRules } from '../../../apimachinery/validation/names';
import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { SchemaValidator } from '../schema/schema-validation';
import { SchemaNode, structuralErrors } from '../schema/structural-schema';
import { defineStrategy } from '../../../registry/kind-definition';
import { settleStatus } from './crd.conditions';
import { CLEANUP_FINALIZER, CUSTOM_RESOURCE_DEFINITION, CustomResourceDefinition } from './crd.schema';
import { validateDefinition, validateDefinitionUpdate } from './crd.validation';

const asCrd = (object: KubeObject) => object as CustomResourceDefinition;

/**
 * The defaults of the apiextensions apiserver: the singular and list kind from the kind, the None conversion, and
 * port 443 of a conversion webhook's service.
 */
function applyDefaults(object: KubeObject): void {
  const crd = asCrd(object);
  crd.spec ??= {};
  const names = crd.spec.names;
  if (names?.kind) {
    names.singular ||= names.kind.toLowerCase();
    names.listKind ||= `${names.kind}List`;
  }
  crd.spec.conversion ??= { strategy: 'None' };
  const service = crd.spec.conversion.webhook?.clientConfig?.service;
  if (service) service.port ??= 443;
}

/** A version's schema must be structural, and one the validator of its objects can compile. */
function schemaErrors(field: string, schema: unknown): FieldError[] {
  const errors = structuralErrors(field, schema);
  if (errors.length > 0) return errors;
  try {
    new SchemaValidator(schema as SchemaNode);
  } catch (error) {
    return [fieldErrors.invalid(field, '', (error as Error).message)];
  }
  return [];
}

const validate = (object: KubeObject) => validateDefinition(asCrd(object), schemaErrors);

/**
 * CustomResourceDefinition (apiextensions.k8s.io/v1). Its status is the server's: on every write the names are
 * accepted and the API established (see crd.conditions.ts); `/status` writes it as a client says. A deleted
 * definition is held by its cleanup finalizer until its objects are gone (src/apiextensions).
 */
export const CRD_STRATEGY = defineStrategy({
  nameRule: nameRules.dns1123Subdomain,
  shape: CUSTOM_RESOURCE_DEFINITION,
  generation: 'spec',
  supportsGenerateName: false,
  status: { empty: {}, keepsLabels: false, validate: () => [] },
  deletionFinalizers: [CLEANUP_FINALIZER],
  applyDefaults,
  validate,
  validateUpdate: (object, old) => [...validate(object), ...validateDefinitionUpdate(asCrd(object), asCrd(old))],
  prepareForCreate: (object) => settleStatus(asCrd(object)),
  prepareForUpdate: (object) => settleStatus(asCrd(object)),
});
