import { Injectable } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { Query } from '../../apimachinery/parameters/query';
import { KindRegistry } from '../../registry/kind-registry';
import { RequestFilter } from './request-filter';
import { requestInfo } from './request-info';

/** Puts on the request what it is about (upstream's WithRequestInfo), for every filter after it and the handler. */
@Injectable()
export class RequestInfoFilter implements RequestFilter {
  constructor(private readonly kinds: KindRegistry) {}

  filter(request: FastifyRequest): void {
    request.requestInfo = requestInfo(request.method, request.url, request.query as Query, this.kinds);
  }
}
