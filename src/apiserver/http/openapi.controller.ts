import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiErrors } from '../../apimachinery/errors/status-error';
import { JSON_TYPE } from '../codec/media-types';
import { OpenApiDocuments, ServedDocument } from '../openapi/openapi-documents';
import { sendStatus } from './reply';

/**
 * What kubectl asks for is `...spec.v2@v1.0+protobuf`, but an '@' is no valid media-type character: client-go's
 * mime parsing rejects a reply carrying it. Later apiservers answer with this dotted form, which parses.
 */
const PROTOBUF_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** Sends a document with its ETag, or 304 when the client holds that version already. */
function sendDocument(request: FastifyRequest, reply: FastifyReply, document: ServedDocument, type: string): void {
  reply.header('etag', document.etag).header('vary', 'Accept');
  if (request.headers['if-none-match'] === document.etag) reply.code(304).send();
  else reply.header('content-type', type).send(document.body);
}

/** The OpenAPI documents: v2 in JSON or protobuf, v3 as an index and one document per group version. */
@Controller()
export class OpenApiController {
  constructor(private readonly documents: OpenApiDocuments) {}

  @Get(['openapi/v2', 'swagger.json', 'swagger-2.0.0.json', 'swagger-2.0.0.pb-v1'])
  v2(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const protobuf = request.url.startsWith('/swagger-2.0.0.pb-v1') || (request.headers.accept ?? '').includes('protobuf');
    if (protobuf) sendDocument(request, reply, this.documents.v2Protobuf(), PROTOBUF_TYPE);
    else sendDocument(request, reply, this.documents.v2(), JSON_TYPE);
  }

  @Get('openapi/v3')
  v3Index(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    sendDocument(request, reply, this.documents.v3Index(), JSON_TYPE);
  }

  /** A group version's document; a `hash` naming an older version is sent on to the current one. */
  @Get('openapi/v3/*')
  v3(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('*') path: string, @Query('hash') hash?: string) {
    const document = this.documents.v3(path);
    if (!document) return sendStatus(request, reply, apiErrors.pathNotFound());
    const current = document.etag.slice(1, -1);
    if (hash !== undefined && hash !== current) return reply.redirect(`/openapi/v3/${path}?hash=${current}`, 301);
    if (hash !== undefined) reply.header('cache-control', 'public, immutable');
    sendDocument(request, reply, document, JSON_TYPE);
  }
}
