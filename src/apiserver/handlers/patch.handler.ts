import { Injectable } from '@nestjs/common';
import { Storages } from '../../registry/storage/storages';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { readWriteOptions } from './dry-run.reader';
import { checkPathName, patchedObject, readPatch } from './request-body';

/**
 * PATCH of one object, or of a subresource's view of it (reference §8.1): the patch is applied to the current state
 * and the result is written like a PUT; when another writer gets in first, the patch is applied again to the new
 * state.
 */
@Injectable()
export class PatchHandler implements VerbHandler {
  readonly routes = [{ verb: 'patch' as const }, { verb: 'patch' as const, subresource: '*' }];

  constructor(private readonly storages: Storages) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const storage = this.storages.of(request.def, request.path.subresource);
    const options = readWriteOptions(request, 'PatchOptions');
    const patch = readPatch(request, storage.kind);
    const name = checkPathName(request);
    const updated = await storage.update(request.path.namespace, name, (current) => patchedObject(request, patch, current, storage.kind), options);
    return { code: 200, body: storage.output(updated, request.path) };
  }
}
