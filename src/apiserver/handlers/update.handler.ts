import { Injectable } from '@nestjs/common';
import { Storages } from '../../registry/rest/storages';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { readWriteOptions } from './dry-run.reader';
import { readManager } from './field-manager.reader';
import { readReplacement } from './request-body';

/**
 * PUT of one object, or of a subresource's view of it: a whole replacement, conditional when the body carries a
 * resourceVersion; of a missing object, a create (201) where the kind allows it.
 */
@Injectable()
export class UpdateHandler implements VerbHandler {
  readonly routes = [{ verb: 'update' as const }, { verb: 'update' as const, subresource: '*' }];

  constructor(private readonly storages: Storages) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const storage = this.storages.of(request.def, request.path.subresource);
    const options = { ...readWriteOptions(request, 'UpdateOptions'), ...readManager(request, 'UpdateOptions') };
    const body = readReplacement(request, storage.kind);
    const { object, created } = await storage.replace(request.path.namespace, body.metadata.name as string, body, options);
    return { code: created ? 201 : 200, body: storage.output(object, request.path) };
  }
}
