import { Controller, Get, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { JSON_TYPE } from '../codec/media-types';
import { sendValue } from './reply';

/** An OpenAPI v2 Document with only `swagger: "2.0"`: in protobuf, field 1 (the version string). */
const EMPTY_DOCUMENT_PROTOBUF = Buffer.from([0x0a, 0x03, ...Buffer.from('2.0')]);
const EMPTY_DOCUMENT_JSON = { swagger: '2.0', info: { title: 'pgkube', version: 'v1.7.4' }, paths: {} };
/**
 * What kubectl asks for is `...spec.v2@v1.0+protobuf`, but an '@' is no valid media-type character: client-go's
 * mime parsing rejects a reply carrying it. Later apiservers answer with this dotted form, which parses.
 */
const PROTOBUF_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/**
 * The OpenAPI v2 document kubectl downloads to validate objects before sending them. It has no definitions yet, so
 * kubectl's client-side validation passes every kind through (reference §5.6, the recommended minimum).
 */
@Controller()
export class OpenApiController {
  @Get(['openapi/v2', 'swagger.json', 'swagger-2.0.0.json', 'swagger-2.0.0.pb-v1'])
  document(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const protobuf = request.url.startsWith('/swagger-2.0.0.pb-v1') || (request.headers.accept ?? '').includes('protobuf');
    if (protobuf) reply.header('content-type', PROTOBUF_TYPE).send(EMPTY_DOCUMENT_PROTOBUF);
    else sendValue(request, reply, 200, EMPTY_DOCUMENT_JSON, { type: JSON_TYPE, pretty: false });
  }
}
