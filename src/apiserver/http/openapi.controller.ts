import { Controller, Get, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { JSON_TYPE } from '../codec/media-types';
import { OpenApiDocument } from '../discovery/openapi-document';
import { sendValue } from './reply';

/**
 * What kubectl asks for is `...spec.v2@v1.0+protobuf`, but an '@' is no valid media-type character: client-go's
 * mime parsing rejects a reply carrying it. Later apiservers answer with this dotted form, which parses.
 */
const PROTOBUF_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** The OpenAPI v2 document kubectl downloads, in JSON or protobuf. */
@Controller()
export class OpenApiController {
  constructor(private readonly openApi: OpenApiDocument) {}

  @Get(['openapi/v2', 'swagger.json', 'swagger-2.0.0.json', 'swagger-2.0.0.pb-v1'])
  document(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const protobuf = request.url.startsWith('/swagger-2.0.0.pb-v1') || (request.headers.accept ?? '').includes('protobuf');
    if (protobuf) reply.header('content-type', PROTOBUF_TYPE).send(this.openApi.asProtobuf());
    else sendValue(request, reply, 200, this.openApi.asJson(), { type: JSON_TYPE, pretty: false });
  }
}
