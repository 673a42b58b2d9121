import { goPackage } from '../../apimachinery/schema/go-packages';
import { s } from '../../apimachinery/schema/schema';

/**
 * The part of gnostic's `openapi.v2` messages (the protobuf form of a Swagger 2.0 document that kubectl 1.20 reads)
 * this server writes, with gnostic's field numbers. Field names are gnostic's, as gnostic.ts fills them.
 */
const OPENAPI_V2 = goPackage('openapi.v2');

const ANY = OPENAPI_V2.struct('Any', { yaml: [2, s.string] });
const NAMED_ANY = OPENAPI_V2.struct('NamedAny', { name: [1, s.string], value: [2, ANY] });
const TYPE_ITEM = OPENAPI_V2.struct('TypeItem', { value: [1, s.stringList] });

/** A schema contains schemas: declared first, its fields given below. */
const SCHEMA = OPENAPI_V2.struct('Schema', {});
const NAMED_SCHEMA = OPENAPI_V2.struct('NamedSchema', { name: [1, s.string], value: [2, SCHEMA] });
const PROPERTIES = OPENAPI_V2.struct('Properties', { additional_properties: [1, s.list(NAMED_SCHEMA)] });
const ITEMS_ITEM = OPENAPI_V2.struct('ItemsItem', { schema: [1, s.list(SCHEMA)] });
const ADDITIONAL_PROPERTIES_ITEM = OPENAPI_V2.struct('AdditionalPropertiesItem', { schema: [1, SCHEMA], boolean: [2, s.boolean] });
OPENAPI_V2.define(SCHEMA, {
  _ref: [1, s.string],
  format: [2, s.string],
  description: [4, s.string],
  required: [19, s.stringList],
  enum: [20, s.list(ANY)],
  additional_properties: [21, ADDITIONAL_PROPERTIES_ITEM],
  type: [22, TYPE_ITEM],
  items: [23, ITEMS_ITEM],
  all_of: [24, s.list(SCHEMA)],
  properties: [25, PROPERTIES],
  vendor_extension: [31, s.list(NAMED_ANY)],
});

const BODY_PARAMETER = OPENAPI_V2.struct('BodyParameter', {
  description: [1, s.string],
  name: [2, s.string],
  in: [3, s.string],
  required: [4, s.boolean],
  schema: [5, SCHEMA],
});
const QUERY_PARAMETER = OPENAPI_V2.struct('QueryParameterSubSchema', {
  required: [1, s.boolean],
  in: [2, s.string],
  description: [3, s.string],
  name: [4, s.string],
  type: [6, s.string],
  unique_items: [20, s.boolean],
});
const PATH_PARAMETER = OPENAPI_V2.struct('PathParameterSubSchema', {
  required: [1, s.boolean],
  in: [2, s.string],
  description: [3, s.string],
  name: [4, s.string],
  type: [5, s.string],
  unique_items: [19, s.boolean],
});
const NON_BODY_PARAMETER = OPENAPI_V2.struct('NonBodyParameter', {
  query_parameter_sub_schema: [3, QUERY_PARAMETER],
  path_parameter_sub_schema: [4, PATH_PARAMETER],
});
const PARAMETER = OPENAPI_V2.struct('Parameter', { body_parameter: [1, BODY_PARAMETER], non_body_parameter: [2, NON_BODY_PARAMETER] });
const PARAMETERS_ITEM = OPENAPI_V2.struct('ParametersItem', { parameter: [1, PARAMETER] });

const SCHEMA_ITEM = OPENAPI_V2.struct('SchemaItem', { schema: [1, SCHEMA] });
const RESPONSE = OPENAPI_V2.struct('Response', { description: [1, s.string], schema: [2, SCHEMA_ITEM] });
const RESPONSE_VALUE = OPENAPI_V2.struct('ResponseValue', { response: [1, RESPONSE] });
const NAMED_RESPONSE_VALUE = OPENAPI_V2.struct('NamedResponseValue', { name: [1, s.string], value: [2, RESPONSE_VALUE] });
const RESPONSES = OPENAPI_V2.struct('Responses', { response_code: [1, s.list(NAMED_RESPONSE_VALUE)] });

const OPERATION = OPENAPI_V2.struct('Operation', {
  operation_id: [5, s.string],
  produces: [6, s.stringList],
  consumes: [7, s.stringList],
  parameters: [8, s.list(PARAMETERS_ITEM)],
  responses: [9, RESPONSES],
  vendor_extension: [13, s.list(NAMED_ANY)],
});
const PATH_ITEM = OPENAPI_V2.struct('PathItem', {
  get: [2, OPERATION],
  put: [3, OPERATION],
  post: [4, OPERATION],
  delete: [5, OPERATION],
  patch: [8, OPERATION],
  parameters: [9, s.list(PARAMETERS_ITEM)],
});
const NAMED_PATH_ITEM = OPENAPI_V2.struct('NamedPathItem', { name: [1, s.string], value: [2, PATH_ITEM] });
const PATHS = OPENAPI_V2.struct('Paths', { path: [2, s.list(NAMED_PATH_ITEM)] });
const DEFINITIONS = OPENAPI_V2.struct('Definitions', { additional_properties: [1, s.list(NAMED_SCHEMA)] });
const INFO = OPENAPI_V2.struct('Info', { title: [1, s.string], version: [2, s.string] });

export const GNOSTIC_DOCUMENT = OPENAPI_V2.struct('Document', {
  swagger: [1, s.string],
  info: [2, INFO],
  paths: [8, PATHS],
  definitions: [9, DEFINITIONS],
});
