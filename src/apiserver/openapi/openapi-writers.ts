import { StructSchema } from '../../apimachinery/schema/schema';
import { SchemaWriter } from './json-schema';
import { JsonSchema } from './schema-object';
import { Operation, PathOperations } from './operations';

const PATCH_BODY: JsonSchema = { type: 'object', description: 'A patch in the format the Content-Type names.' };

const PATH_PARAMETER_DESCRIPTIONS: Record<string, string> = {
  namespace: 'The namespace of the object.',
  name: 'The name of the object.',
};

const extensions = (operation: Operation) => ({
  'x-kubernetes-action': operation.action,
  'x-kubernetes-group-version-kind': operation.gvk,
});

const bodySchema = (writer: SchemaWriter, body: StructSchema | 'patch') => (body === 'patch' ? PATCH_BODY : writer.schema(body));

/** The operations of one path in Swagger 2.0. */
export function v2PathItem(path: PathOperations, writer: SchemaWriter): JsonSchema {
  const item: JsonSchema = {
    parameters: path.pathParameters.map((name) => ({
      name,
      in: 'path',
      required: true,
      type: 'string',
      uniqueItems: true,
      description: PATH_PARAMETER_DESCRIPTIONS[name],
    })),
  };
  for (const operation of path.operations) {
    item[operation.method] = {
      operationId: operation.operationId,
      consumes: operation.consumes ?? ['*/*'],
      produces: operation.produces,
      parameters: [
        ...(operation.body ? [{ name: 'body', in: 'body', required: true, schema: bodySchema(writer, operation.body) }] : []),
        ...operation.query.map(({ name, type, description }) => ({ name, in: 'query', type, uniqueItems: true, description })),
      ],
      responses: {
        '200': { description: 'OK', ...(operation.response && { schema: writer.schema(operation.response) }) },
        '401': { description: 'Unauthorized' },
      },
      ...extensions(operation),
    };
  }
  return item;
}

const content = (types: readonly string[], schema: JsonSchema) => Object.fromEntries(types.map((type) => [type, { schema }]));

/** The operations of one path in OpenAPI 3.0. */
export function v3PathItem(path: PathOperations, writer: SchemaWriter): JsonSchema {
  const item: JsonSchema = {
    parameters: path.pathParameters.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string', uniqueItems: true },
      description: PATH_PARAMETER_DESCRIPTIONS[name],
    })),
  };
  for (const operation of path.operations) {
    item[operation.method] = {
      operationId: operation.operationId,
      parameters: operation.query.map(({ name, type, description }) => ({ name, in: 'query', schema: { type, uniqueItems: true }, description })),
      ...(operation.body && {
        requestBody: { required: true, content: content(operation.consumes ?? ['*/*'], bodySchema(writer, operation.body)) },
      }),
      responses: {
        '200': { description: 'OK', ...(operation.response && { content: content(operation.produces, writer.schema(operation.response)) }) },
        '401': { description: 'Unauthorized' },
      },
      ...extensions(operation),
    };
  }
  return item;
}
