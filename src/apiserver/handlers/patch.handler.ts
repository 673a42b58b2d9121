import { Injectable } from '@nestjs/common';
import { Storages } from '../../registry/rest/storages';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { readWriteOptions } from './dry-run.reader';
import { readManager } from './field-manager.reader';
import { checkPathName, isApply, patchedObject, readApplyConfiguration, readPatch } from './request-body';

/**
 * PATCH of one object, or of a subresource's view of it: the patch is applied to the current state
 * and the result is written like a PUT; when another writer gets in first, the patch is applied again to the new
 * state. A server-side apply (`application/apply-patch+yaml`) is merged by the path's field manager instead, and
 * creates the object when it is missing (201).
 */
@Injectable()
export class PatchHandler implements VerbHandler {
  readonly routes = [{ verb: 'patch' as const }, { verb: 'patch' as const, subresource: '*' }];

  constructor(private readonly storages: Storages) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const storage = this.storages.of(request.def, request.path.subresource);
    const writeOptions = readWriteOptions(request, 'PatchOptions');
    if (isApply(request)) {
      const options = { ...writeOptions, ...readManager(request, 'PatchOptions', true) };
      const name = checkPathName(request);
      const config = readApplyConfiguration(request, storage.kind);
      const { object, created } = await storage.apply(request.path.namespace, name, config, options);
      return { code: created ? 201 : 200, body: storage.output(object, request.path) };
    }
    const options = { ...writeOptions, ...readManager(request, 'PatchOptions') };
    const patch = readPatch(request, storage.kind);
    const name = checkPathName(request);
    const updated = await storage.update(request.path.namespace, name, (current) => patchedObject(request, patch, current, storage.kind), options);
    return { code: 200, body: storage.output(updated, request.path) };
  }
}
