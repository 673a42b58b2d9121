import { All, Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RawBody } from '../codec/body-decoder';
import { negotiate } from '../codec/negotiation';
import { DiscoveryService } from '../discovery/discovery.service';
import { apiErrors } from '../../apimachinery/errors/status-error';
import { VerbHandlers } from '../handlers/verb-handlers';
import { KindRegistry } from '../../registry/kind-registry';
import { wireOf } from '../../registry/kind-definition';
import { parsePath, ResourcePath } from '../request/resource-path';
import { looseBool, param, Query } from '../../apimachinery/parameters/query';
import { resolveVerb } from '../request/verb';
import { TableConvertor } from '../table/table-convertor';
import { tableResponse } from '../table/table-response';
import { sendList, sendValue, streamEvents } from './reply';
import '../request/request-object-observer';

const API_PATHS = ['api', 'api/*', 'apis', 'apis/*'];

/** The verbs whose objects a client may ask for as a Table. */
const TABLE_VERBS = new Set(['get', 'list', 'watch']);

/**
 * The single entry point of everything under /api and /apis: resolves the path to a discovery document or to a
 * kind and a verb, and hands the request to the verb's handler. Knows nothing of any particular kind.
 */
@Controller()
export class ApiController {
  constructor(
    private readonly registry: KindRegistry,
    private readonly discovery: DiscoveryService,
    private readonly handlers: VerbHandlers,
  ) {}

  /** Every method, so that one the API does not serve (HEAD, OPTIONS, ...) gets 405 on an existing path. */
  @All(API_PATHS)
  handle(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.serve(request, reply);
  }

  private async serve(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const rawPath = request.url.split('?')[0];
    const parsed = parsePath(rawPath);
    if (parsed.type === 'unknown') throw apiErrors.pathNotFound();
    if (parsed.type !== 'resource') {
      const document = this.discoveryDocument(parsed, request.headers.host ?? '');
      if (request.method !== 'GET') throw apiErrors.methodNotAllowed();
      sendValue(request, reply, 200, document, negotiate(request.headers.accept, false));
      return;
    }
    await this.serveResource(parsed.resource, request, reply);
  }

  private discoveryDocument(parsed: Exclude<ReturnType<typeof parsePath>, { type: 'resource' | 'unknown' }>, host: string) {
    switch (parsed.type) {
      case 'legacyVersions':
        return this.discovery.legacyVersions(host);
      case 'groupList':
        return this.discovery.groupList(host);
      case 'group':
        return this.discovery.group(parsed.group);
      case 'groupVersion':
        return this.discovery.resources(parsed.group, parsed.version);
    }
  }

  private async serveResource(path: ResourcePath, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const def = this.registry.find(path.group, path.version, path.resource);
    if (!def) throw apiErrors.pathNotFound();
    if (def.namespaced ? path.namespace === undefined && path.name !== undefined : path.namespace !== undefined) {
      throw apiErrors.pathNotFound();
    }
    const query = request.query as Query;
    let verbs = def.verbs;
    if (path.subresource !== undefined) {
      const sub = def.subresources.find((s) => s.name === path.subresource);
      if (!sub) throw apiErrors.pathNotFound();
      verbs = sub.verbs;
    } else if (verbs.length === 0) {
      throw apiErrors.pathNotFound();
    }
    const verb = resolveVerb(request.method, path, query);
    const clusterWideWrite = def.namespaced && path.namespace === undefined && verb !== 'list' && verb !== 'watch';
    if (!verb || !verbs.includes(verb) || clusterWideWrite) throw apiErrors.methodNotAllowed();
    const handler = this.handlers.find(verb, path.subresource);
    if (!handler) throw apiErrors.methodNotAllowed();
    if (path.subresource !== undefined && verb === 'get' && looseBool(param(query, 'export'))) {
      throw apiErrors.badRequest(`export of "${def.resource}" is not supported`);
    }
    const tableVerb = TABLE_VERBS.has(verb) && path.subresource === undefined;
    const negotiated = negotiate(request.headers.accept, verb === 'watch', tableVerb, wireOf(def).mediaTypes);
    const tables = negotiated.table && new TableConvertor(def, negotiated.table, query);
    const warnings: string[] = [];
    const handled = await handler.handle({
      def,
      verb,
      path,
      query,
      body: request.body as RawBody,
      contentType: request.headers['content-type'],
      userAgent: request.headers['user-agent'],
      negotiated,
      warnings,
      user: request.auth?.user,
      projection: tables ? tables.projection() : undefined,
      observeObject: request.observeRequestObject,
    });
    const sent = def.deprecationWarning ? [def.deprecationWarning, ...warnings] : warnings;
    if (sent.length > 0) reply.header('warning', sent.map((warning) => `299 - ${JSON.stringify(warning)}`));
    const response = tables ? tableResponse(tables, handled) : handled;
    if ('events' in response) streamEvents(reply, response.events, negotiated);
    else if ('list' in response) await sendList(request, reply, response.list, negotiated);
    else sendValue(request, reply, response.code, response.body, negotiated);
  }
}
