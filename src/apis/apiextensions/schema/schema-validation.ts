import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import { FieldError, fieldErrors, formatValue } from '../../../apimachinery/errors/field-error';
import { isPlainObject } from '../../../apimachinery/meta/kube-object';
import { listTypeErrors } from './list-types';
import { SchemaNode } from './structural-schema';

/**
 * The schema as a JSON Schema (draft 7) validator reads it: OpenAPI 3.0's boolean exclusiveMinimum/Maximum become
 * numbers, `nullable` goes where no type carries it, and `metadata` is left to the ObjectMeta checks every kind has.
 */
function forValidator(node: SchemaNode, root = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'default' || keyword === 'description' || keyword === 'example' || keyword.startsWith('x-kubernetes-list-')) continue;
    out[keyword] = value;
  }
  if (node.exclusiveMinimum === true) out.exclusiveMinimum = node.minimum;
  if (node.exclusiveMinimum === true || node.exclusiveMinimum === false) delete out.minimum;
  if (node.exclusiveMinimum === false) out.minimum = node.minimum;
  if (node.exclusiveMaximum === true) out.exclusiveMaximum = node.maximum;
  if (node.exclusiveMaximum === true || node.exclusiveMaximum === false) delete out.maximum;
  if (node.exclusiveMaximum === false) out.maximum = node.maximum;
  if (out.exclusiveMinimum === false) delete out.exclusiveMinimum;
  if (out.exclusiveMaximum === false) delete out.exclusiveMaximum;
  if (node.type === undefined) delete out.nullable;
  if (node.properties) {
    const properties = Object.entries(node.properties).filter(([name]) => !(root && name === 'metadata'));
    out.properties = Object.fromEntries(properties.map(([name, child]) => [name, forValidator(child)]));
  }
  if (isPlainObject(node.additionalProperties)) out.additionalProperties = forValidator(node.additionalProperties as SchemaNode);
  else delete out.additionalProperties; // pruning has dropped what is not allowed
  if (node.items) out.items = forValidator(node.items);
  for (const combinator of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (Array.isArray(node[combinator])) out[combinator] = (node[combinator] as SchemaNode[]).map((n) => forValidator(n));
  }
  if (isPlainObject(node.not)) out.not = forValidator(node.not as SchemaNode);
  return out;
}

function newValidator(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, validateSchema: false });
  ajv.addKeyword({
    keyword: 'x-kubernetes-int-or-string',
    schemaType: 'boolean',
    validate: (on: boolean, data: unknown) => !on || typeof data === 'string' || Number.isInteger(data),
    errors: false,
  });
  return ajv;
}

/** `spec.ports[0].name` for the JSON pointer `/spec/ports/0/name`, reading the value to tell lists from objects. */
function fieldPath(pointer: string, object: unknown): string {
  let path = '';
  let value = object;
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += Array.isArray(value) ? `[${segment}]` : path === '' ? segment : `.${segment}`;
    value = (value as Record<string, unknown> | undefined)?.[segment];
  }
  return path;
}

const valueAt = (pointer: string, object: unknown): unknown =>
  pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((value, raw) => (value as Record<string, unknown> | undefined)?.[raw.replace(/~1/g, '/').replace(/~0/g, '~')], object);

/** One validator error as the apiserver words it (`spec.replicas in body must be of type integer: "string"`). */
function toFieldError(error: ErrorObject, object: unknown): FieldError | undefined {
  const field = fieldPath(error.instancePath, object);
  const value = valueAt(error.instancePath, object);
  const inBody = `${field || '<root>'} in body`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      return fieldErrors.required(field ? `${field}.${missing}` : missing);
    }
    case 'type':
      return fieldErrors.invalid(field, typeName(value), `${inBody} must be of type ${String(params.type)}: ${formatValue(typeName(value))}`);
    case 'enum':
      return fieldErrors.notSupported(field, value, (params.allowedValues as unknown[]).map(String));
    case 'x-kubernetes-int-or-string':
      return fieldErrors.invalid(field, value, `${inBody} must be an integer or a string`);
    case 'maximum':
    case 'exclusiveMaximum':
      return fieldErrors.invalid(field, value, `${inBody} should be less than ${error.keyword === 'maximum' ? 'or equal to ' : ''}${String(params.limit)}`);
    case 'minimum':
    case 'exclusiveMinimum':
      return fieldErrors.invalid(field, value, `${inBody} should be greater than ${error.keyword === 'minimum' ? 'or equal to ' : ''}${String(params.limit)}`);
    case 'minLength':
      return fieldErrors.invalid(field, value, `${inBody} should be at least ${String(params.limit)} chars long`);
    case 'maxLength':
      return fieldErrors.tooLong(field, Number(params.limit));
    case 'pattern':
      return fieldErrors.invalid(field, value, `${inBody} should match '${String(params.pattern)}'`);
    case 'minItems':
      return fieldErrors.invalid(field, value, `${inBody} should have at least ${String(params.limit)} items`);
    case 'maxItems':
      return fieldErrors.tooMany(field, (value as unknown[]).length, Number(params.limit));
    case 'uniqueItems':
      return fieldErrors.duplicate(`${field}[${String(params.j)}]`, (value as unknown[])[Number(params.j)]);
    case 'if':
    case 'anyOf':
    case 'oneOf':
      return undefined; // their branches' errors say more
    default:
      return fieldErrors.invalid(field, value, `${inBody} ${error.message ?? 'is invalid'}`);
  }
}

/** The OpenAPI type name of a JSON value, as the apiserver's messages name the type a value has. */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** A version's schema compiled once, checking objects against it (and its list types: no duplicate items). */
export class SchemaValidator {
  private readonly check: ValidateFunction;

  constructor(private readonly schema: SchemaNode) {
    this.check = newValidator().compile(forValidator(schema, true));
  }

  errors(object: unknown): FieldError[] {
    const found = this.check(object) ? [] : (this.check.errors ?? []).map((error) => toFieldError(error, object)).filter((e): e is FieldError => !!e);
    const unique = found.filter((error, i) => found.findIndex((e) => e.field === error.field && e.message === error.message) === i);
    return [...unique, ...listTypeErrors(object, this.schema)];
  }
}
