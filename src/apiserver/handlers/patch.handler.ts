import { Injectable } from '@nestjs/common';
import { toOutput } from '../../registry/object-output';
import { GenericRegistry } from '../../registry/store/generic-registry';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { readDryRun } from './dry-run.reader';
import { checkPathName, patchedObject, readPatch } from './request-body';

/**
 * PATCH of one object (reference §8.1): the patch is applied to the stored object and the result is written like a
 * PUT; when another writer gets in first, the patch is applied again to the new state.
 */
@Injectable()
export class PatchHandler implements VerbHandler {
  readonly routes = [{ verb: 'patch' as const }];

  constructor(private readonly registry: GenericRegistry) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const options = readDryRun(request.query, 'PatchOptions');
    const patch = readPatch(request);
    const name = checkPathName(request);
    const updated = await this.registry.update(
      request.def,
      request.path.namespace,
      name,
      (current) => this.registry.prepareUpdate(request.def, patchedObject(request, patch, current), current),
      options,
    );
    return { code: 200, body: toOutput(request.def, updated, { withTypeMeta: true }) };
  }
}
