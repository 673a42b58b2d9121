import { dump } from 'js-yaml';
import { Writer } from 'protobufjs';
import { codecs } from '../codec/protobuf/envelope';
import { messageType } from '../codec/protobuf/schema';
import { GNOSTIC_DOCUMENT } from './gnostic-messages';
import { JsonSchema } from './schema-object';

type Json = Record<string, any>;

/** A value gnostic keeps as YAML text (vendor extensions, enum values). */
const yamlAny = (value: unknown) => ({ yaml: dump(value, { lineWidth: -1 }) });

function vendorExtensions(object: Json): Json[] {
  return Object.entries(object)
    .filter(([key]) => key.startsWith('x-'))
    .map(([name, value]) => ({ name, value: yamlAny(value) }));
}

const named = <T>(entries: Record<string, T>, convert: (value: T) => unknown) =>
  Object.entries(entries).map(([name, value]) => ({ name, value: convert(value) }));

function schema(source: JsonSchema): Json {
  const { $ref, format, description, required, type, items, allOf, properties, additionalProperties } = source as Json;
  return {
    _ref: $ref,
    format,
    description,
    required,
    enum: (source.enum as unknown[] | undefined)?.map(yamlAny),
    additional_properties: additionalProperties && { schema: schema(additionalProperties) },
    type: type && { value: [type] },
    items: items && { schema: [schema(items)] },
    all_of: (allOf as JsonSchema[] | undefined)?.map(schema),
    properties: properties && { additional_properties: named(properties as Record<string, JsonSchema>, schema) },
    vendor_extension: vendorExtensions(source),
  };
}

function parameter(source: Json): Json {
  if (source.in === 'body') return { parameter: { body_parameter: { ...source, schema: schema(source.schema) } } };
  const common = { required: source.required, in: source.in, description: source.description, name: source.name, type: source.type, unique_items: source.uniqueItems };
  const kind = source.in === 'path' ? 'path_parameter_sub_schema' : 'query_parameter_sub_schema';
  return { parameter: { non_body_parameter: { [kind]: common } } };
}

function operation(source: Json): Json {
  return {
    operation_id: source.operationId,
    produces: source.produces,
    consumes: source.consumes,
    parameters: source.parameters.map(parameter),
    responses: {
      response_code: named(source.responses as Record<string, Json>, (response) => ({
        response: { description: response.description, schema: response.schema && { schema: schema(response.schema) } },
      })),
    },
    vendor_extension: vendorExtensions(source),
  };
}

function pathItem(source: Json): Json {
  const item: Json = { parameters: source.parameters.map(parameter) };
  for (const method of ['get', 'put', 'post', 'delete', 'patch']) if (source[method]) item[method] = operation(source[method]);
  return item;
}

/** A Swagger 2.0 document as gnostic's `openapi.v2.Document` message. */
export function encodeGnosticDocument(document: Json): Buffer {
  const message = {
    swagger: document.swagger,
    info: document.info,
    paths: { path: named(document.paths as Record<string, Json>, pathItem) },
    definitions: { additional_properties: named(document.definitions as Record<string, JsonSchema>, schema) },
  };
  const writer = Writer.create();
  codecs.of(messageType(`${GNOSTIC_DOCUMENT.package}.${GNOSTIC_DOCUMENT.name}`)).encode(message, writer);
  return Buffer.from(writer.finish());
}
