import { Injectable } from '@nestjs/common';
import { apiErrors } from '../errors/status-error';
import { toOutput } from '../meta/object-output';
import { looseBool, param } from '../request/query';
import { GenericRegistry } from '../store/generic-registry';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { checkPathName, readReplacement } from './request-body';

/**
 * GET and PUT on `{name}/status` (reference §11.1): the whole object, read as on the main path; a write changes
 * only its status. The kind's row says which of the two it serves (a federation Cluster's status is PUT only).
 */
@Injectable()
export class StatusHandler implements VerbHandler {
  readonly routes = [
    { verb: 'get' as const, subresource: 'status' },
    { verb: 'update' as const, subresource: 'status' },
  ];

  constructor(private readonly registry: GenericRegistry) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const { def } = request;
    if (request.verb === 'get') {
      const name = checkPathName(request);
      if (looseBool(param(request.query, 'export'))) throw apiErrors.badRequest(`export of "${def.resource}" is not supported`);
      const object = await this.registry.get(def, request.path.namespace, name);
      return { code: 200, body: toOutput(def, object, { withTypeMeta: true, subresource: 'status' }) };
    }
    const body = readReplacement(request);
    const updated = await this.registry.update(def, request.path.namespace, body.metadata.name as string, (current) =>
      this.registry.prepareStatusUpdate(def, structuredClone(body), current),
    );
    return { code: 200, body: toOutput(def, updated, { withTypeMeta: true, subresource: 'status' }) };
  }
}
