import { Injectable } from '@nestjs/common';
import { apiErrors } from '../errors/status-error';
import { toOutput } from '../meta/object-output';
import { parseResourceVersion } from '../request/query';
import { GenericRegistry } from '../store/generic-registry';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { checkPathName, readObject, settleNamespace } from './request-body';

/** PUT of one object: a whole replacement, conditional when the body carries a resourceVersion (reference §4.2). */
@Injectable()
export class UpdateHandler implements VerbHandler {
  readonly routes = [{ verb: 'update' as const }];

  constructor(private readonly registry: GenericRegistry) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const name = checkPathName(request);
    const body = readObject(request);
    const meta = body.metadata;
    if (!meta.name) {
      throw apiErrors.badRequest(`the name of the object (${name} based on URL) was undeterminable: name must be provided`);
    }
    if (meta.name !== name) {
      throw apiErrors.badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`);
    }
    settleNamespace(request, body, false);
    if (meta.resourceVersion) meta.resourceVersion = parseResourceVersion(meta.resourceVersion);
    const updated = await this.registry.update(request.def, request.path.namespace, name, (current) =>
      this.registry.prepareUpdate(request.def, structuredClone(body), current),
    );
    return { code: 200, body: toOutput(request.def, updated, { withTypeMeta: true }) };
  }
}
